/// Tells keys that are data from keys that are names.
///
/// An object whose keys are all data (`"5C1A3B2E-…"`, `"com.apple.mobilenotes"`, `"42"`) is a
/// dictionary keyed by those values, not a record with a field per key: the next row will have
/// other keys. The rule is deliberately narrow, because a record mistaken for a dictionary
/// still decodes, while a dictionary mistaken for a record fails on the next row. A key is data
/// when it is
/// - a UUID (`8-4-4-4-12` hexadecimal digits, either case);
/// - an integer (`42`, `-7`), as Codable writes an `[Int: T]` dictionary's keys;
/// - a run of 16 or more hexadecimal digits with at least one digit (hashes, record names), or
///   a key holding such a run or a UUID (`8:live:.cid.832804f1252ed9b2`, the user ids Teams
///   keys its members by);
/// - a reverse-DNS identifier with at least two dots (`com.apple.mobilenotes`, bundle and
///   group identifiers);
/// - an e-mail address, a URL (`scheme://…`) or a path (`/…`, `~/…`);
/// - a number-like token that starts with a digit and holds only digits and `.`, `-`, `:`
///   (versions, dates, times: `1.2.3`, `2024-05-01`).
enum DataLikeKey {
    static func isDataLike(_ key: String) -> Bool {
        let u = Array(key.utf8)
        guard !u.isEmpty, u.count <= 1_024 else { return false }
        if isUUID(u) || isInteger(u) || isLongHex(u) || isNumberLike(u) || containsIdentifier(u) { return true }
        if key.hasPrefix("/") || key.hasPrefix("~/") || key.contains("://") { return !key.contains(" ") }
        if isEmail(u) { return true }
        return isReverseDNS(u)
    }

    static func isHex(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(c)
    }

    static func isDigit(_ c: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) }

    static func isLetter(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
    }

    static func isUUID(_ u: [UInt8]) -> Bool {
        guard u.count == 36 else { return false }
        for (i, c) in u.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                guard c == UInt8(ascii: "-") else { return false }
            } else if !isHex(c) {
                return false
            }
        }
        return true
    }

    static func isInteger(_ u: [UInt8]) -> Bool {
        let digits = u.first == UInt8(ascii: "-") || u.first == UInt8(ascii: "+") ? u.dropFirst() : u[...]
        return !digits.isEmpty && digits.allSatisfy(isDigit)
    }

    static func isLongHex(_ u: [UInt8]) -> Bool {
        u.count >= 16 && u.allSatisfy(isHex) && u.contains(where: isDigit)
    }

    /// Whether a UUID or a run of 16 or more hexadecimal digits (with a digit) is inside.
    static func containsIdentifier(_ u: [UInt8]) -> Bool {
        var run = 0
        var runHasDigit = false
        for (i, c) in u.enumerated() {
            if isHex(c) {
                run += 1
                runHasDigit = runHasDigit || isDigit(c)
                if run >= 16, runHasDigit { return true }
            } else {
                run = 0
                runHasDigit = false
            }
            if c == UInt8(ascii: "-"), i >= 8, i + 28 <= u.count, isUUID(Array(u[(i - 8)..<(i + 28)])) { return true }
        }
        return false
    }

    static func isNumberLike(_ u: [UInt8]) -> Bool {
        guard let first = u.first, isDigit(first) else { return false }
        return u.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") }
    }

    static func isEmail(_ u: [UInt8]) -> Bool {
        guard let at = u.firstIndex(of: UInt8(ascii: "@")), at > 0 else { return false }
        let domain = u[(at + 1)...]
        guard !u.contains(UInt8(ascii: " ")), domain.contains(UInt8(ascii: ".")), !domain.contains(UInt8(ascii: "@")) else { return false }
        return domain.last != UInt8(ascii: ".")
    }

    static func isReverseDNS(_ u: [UInt8]) -> Bool {
        let parts = u.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count >= 3, let first = parts.first?.first, isLetter(first) else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        }
    }
}
