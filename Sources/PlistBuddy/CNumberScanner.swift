/// The three `sscanf` conversions PlistBuddy reads command text with, so that a value means
/// here what it means on a Mac: `%lld` for integers, `%f` for reals, `%i` for array indexes.
///
/// Each skips leading white space and reads the longest prefix it can; what follows is
/// ignored (`12abc` is 12). Text that is empty or only white space is C's "end of input", which
/// PlistBuddy takes as success with the value left at zero; text that starts with anything else
/// is "no match".
enum CNumberScanner {
    enum Scan<Value> {
        /// Nothing but white space: `sscanf` returns EOF and writes nothing.
        case endOfInput
        /// Something other than a number: `sscanf` returns 0.
        case noMatch
        case value(Value)
    }

    /// `%lld`: an optional sign and decimal digits, saturating at the ends of Int64 as `strtoll` does.
    static func integer(_ text: some Collection<UInt8>) -> Scan<Int64> {
        var bytes = Array(text)[...]
        skipSpace(&bytes)
        guard !bytes.isEmpty else { return .endOfInput }
        let negative = takeSign(&bytes)
        guard let first = bytes.first, isDigit(first) else { return .noMatch }
        var magnitude: UInt64 = 0
        var overflow = false
        while let b = bytes.first, isDigit(b) {
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(UInt64(b - 0x30))
            overflow = overflow || o1 || o2
            magnitude = m2
            bytes.removeFirst()
        }
        if negative {
            if overflow || magnitude > UInt64(Int64.max) + 1 { return .value(.min) }
            return .value(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
        }
        if overflow || magnitude > UInt64(Int64.max) { return .value(.max) }
        return .value(Int64(magnitude))
    }

    /// `%f`: the longest prefix `strtod` reads (decimal with an exponent, hexadecimal with a
    /// binary exponent, `inf`, `infinity`, `nan`), as a Double; the caller narrows it to the
    /// float `%f` stores.
    static func real(_ text: some Collection<UInt8>) -> Scan<Double> {
        var bytes = Array(text)[...]
        skipSpace(&bytes)
        guard !bytes.isEmpty else { return .endOfInput }
        var prefix = bytes
        let negative = takeSign(&prefix)
        let sign = negative ? -1.0 : 1.0
        if let word = leadingWord(prefix) {
            if word.hasPrefix("infinity") || word.hasPrefix("inf") { return .value(sign * .infinity) }
            if word.hasPrefix("nan") { return .value(.nan) }
        }
        if prefix.count >= 2, prefix.first == 0x30, prefix.dropFirst().first.map({ $0 | 0x20 }) == 0x78 {
            // Hexadecimal: 0x, hex digits with an optional point, then an optional p exponent.
            var digits = prefix.dropFirst(2)
            // "0x" with no digit after it reads as the 0 before the x.
            guard let mantissa = takeMantissa(&digits, digit: isHexDigit) else { return .value(sign * 0) }
            let exponent = exponent(digits, marker: "p") ?? "p0"
            return .value(sign * (Double("0x" + (mantissa.hasPrefix(".") ? "0" + mantissa : mantissa) + exponent) ?? 0))
        }
        // Decimal: digits with an optional point (at least one digit), then an optional exponent.
        var rest = prefix
        guard var number = takeMantissa(&rest, digit: isDigit) else { return .noMatch }
        number += exponent(rest, marker: "e") ?? ""
        if number.hasPrefix(".") { number = "0" + number }
        if number.hasSuffix(".") { number += "0" }
        if let dot = number.firstIndex(of: "."), number[number.index(after: dot)...].first.map({ $0 == "e" }) == true {
            number.insert("0", at: number.index(after: dot))
        }
        return .value(sign * (Double(number) ?? 0))
    }

    /// Digits with an optional point and digits after it (`12`, `12.5`, `.5`, `12.`), taken
    /// from the front of `bytes` as `strtod` takes them: nil, and a point left in place, when
    /// no digit is on either side of it.
    static func takeMantissa(_ bytes: inout ArraySlice<UInt8>, digit: (UInt8) -> Bool) -> String? {
        var text = takeDigits(&bytes, digit: digit)
        var sawDigit = !text.isEmpty
        if bytes.first == 0x2E {
            var after = bytes.dropFirst()
            let fraction = takeDigits(&after, digit: digit)
            if sawDigit || !fraction.isEmpty {
                text += "." + fraction
                bytes = after
                sawDigit = true
            }
        }
        return sawDigit ? text : nil
    }

    /// The run of digits at the front of `bytes`, taken off it.
    static func takeDigits(_ bytes: inout ArraySlice<UInt8>, digit: (UInt8) -> Bool) -> String {
        var text = ""
        while let b = bytes.first, digit(b) { text.append(Character(Unicode.Scalar(b))); bytes.removeFirst() }
        return text
    }

    /// The exponent at the front of `bytes` (`marker`, `e` or `p` in either case, an optional
    /// sign, decimal digits), spelled with the lower-case marker; nil when no digit follows.
    static func exponent(_ bytes: ArraySlice<UInt8>, marker: Unicode.Scalar) -> String? {
        guard let m = bytes.first, m | 0x20 == UInt8(marker.value) else { return nil }
        var rest = bytes.dropFirst()
        var text = String(marker)
        if let s = rest.first, s == 0x2B || s == 0x2D { text.append(Character(Unicode.Scalar(s))); rest.removeFirst() }
        let digits = takeDigits(&rest, digit: isDigit)
        return digits.isEmpty ? nil : text + digits
    }

    /// `%i` into an `int` PlistBuddy sets to 0 first: decimal, `0x` hexadecimal or `0` octal,
    /// the result cut to 32 bits as the store into an `int` cuts it. No number leaves the 0.
    static func index(_ text: some Collection<UInt8>) -> Int {
        var bytes = Array(text)[...]
        skipSpace(&bytes)
        let negative = takeSign(&bytes)
        var base: UInt64 = 10
        if bytes.first == 0x30 {
            let next = bytes.dropFirst().first
            if let x = next, x | 0x20 == 0x78, let d = bytes.dropFirst(2).first, isHexDigit(d) {
                base = 16
                bytes.removeFirst(2)
            } else {
                base = 8
            }
        }
        var magnitude: UInt64 = 0
        var sawDigit = false
        let limit = UInt64(Int64.max) + (negative ? 1 : 0)
        while let b = bytes.first, let d = digitValue(b), d < base {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: base)
            let (plus, o2) = times.addingReportingOverflow(d)
            // strtoimax saturates; past Int64 the value is pinned, as it is on a Mac.
            magnitude = o1 || o2 || plus > limit ? limit : plus
            bytes.removeFirst()
            sawDigit = true
        }
        guard sawDigit else { return 0 }
        let wide: Int64 = negative ? (magnitude > UInt64(Int64.max) ? .min : -Int64(magnitude)) : Int64(min(magnitude, UInt64(Int64.max)))
        return Int(Int32(truncatingIfNeeded: wide))
    }

    // MARK: Characters

    /// C's `isspace` in the C locale.
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
    static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }
    static func isHexDigit(_ b: UInt8) -> Bool { digitValue(b).map { $0 < 16 } ?? false }

    static func digitValue(_ b: UInt8) -> UInt64? {
        switch b {
        case 0x30...0x39: UInt64(b - 0x30)
        case 0x61...0x66: UInt64(b - 0x61 + 10)
        case 0x41...0x46: UInt64(b - 0x41 + 10)
        default: nil
        }
    }

    static func skipSpace(_ bytes: inout ArraySlice<UInt8>) {
        while let b = bytes.first, isSpace(b) { bytes.removeFirst() }
    }

    /// Takes a leading `+` or `-`; true for `-`.
    static func takeSign(_ bytes: inout ArraySlice<UInt8>) -> Bool {
        guard let b = bytes.first, b == 0x2B || b == 0x2D else { return false }
        bytes.removeFirst()
        return b == 0x2D
    }

    /// The leading ASCII letters, lowercased (for `inf` and `nan`).
    static func leadingWord(_ bytes: ArraySlice<UInt8>) -> String? {
        let letters = bytes.prefix { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
        return letters.isEmpty ? nil : String(decoding: letters.map { $0 | 0x20 }, as: UTF8.self)
    }
}
