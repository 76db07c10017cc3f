import Foundation

/// The parser behind `OpenStepPropertyListReader`, scanning validated UTF-8 bytes.
///
/// It keeps its own stack of open collections instead of recursing, so a deep document costs
/// heap, never the thread's stack, whatever depth limit the caller allows.
struct OpenStepParser: TextPropertyListParser {
    let text: UnsafeBufferPointer<UInt8>
    let end: Int
    var pos = 0
    let options: PropertyListReadOptions
    var objectCount = 0
    var decodedSize = 0
    /// Reused for strings with escapes, so that building one allocates once.
    private var scratch: [UInt8] = []
    var stack: [OpenTextCollection<Kind>] = []
    var warnings: [PropertyListWarning] = []

    enum Kind: TextCollectionKind {
        case array, dictionary
        /// A .strings file: a dictionary without braces.
        case stringsFile
        var isArray: Bool { self == .array }
        var noun: String { self == .array ? "array" : "dictionary" }
    }

    static var bracelessKind: Kind? { .stringsFile }

    private enum State {
        /// A value must start here.
        case value
        /// In a dictionary: a key, or the end of the dictionary.
        case key
        /// In an array: a value, or the end of the array (a trailing comma is allowed).
        case element
        /// A value is complete; attach it to the open collection.
        case complete(PropertyListValue)
    }

    init(text: UnsafeBufferPointer<UInt8>, options: PropertyListReadOptions) {
        self.text = text
        self.end = text.count
        self.options = options
    }

    // MARK: Document

    mutating func parseDocument() throws(PropertyListError) -> PropertyListValue {
        guard end > 0 else { throw error(.truncated, "the input is empty") }
        // CF reads a document of only whitespace and comments as an empty dictionary.
        guard try skipSpace() else { return .dictionary(PropertyListDictionary()) }
        var state = State.value
        if isStringStart(text[pos]) {
            let mark = pos
            let first = try parseString()
            guard try skipSpace() else { return first }
            // A string followed by more text is a .strings file: a dictionary without braces.
            pos = mark
            objectCount = 0
            decodedSize = 0
            try push(.stringsFile)
            state = .key
        }
        return try run(state)
    }

    private mutating func run(_ initial: State) throws(PropertyListError) -> PropertyListValue {
        var state = initial
        while true {
            switch state {
            case .value:
                guard try skipSpace() else { throw endsInside("where a value should start") }
                switch text[pos] {
                case UInt8(ascii: "{"):
                    try push(.dictionary)
                    pos += 1
                    state = .key
                case UInt8(ascii: "("):
                    try push(.array)
                    pos += 1
                    state = .element
                default:
                    state = .complete(try parseScalar())
                }

            case .key:
                let found = try skipSpace()
                let top = stack.count - 1
                if found, isStringStart(text[pos]) {
                    let keyStart = pos
                    let key = try parseString()
                    guard try skipSpace() else { throw endsInside("after a key; expected '=' or ';'") }
                    switch text[pos] {
                    case UInt8(ascii: ";"):
                        // `key;` is short for `key = key;`, as .strings files use it.
                        pos += 1
                        try countObject()
                        stack[top].appendKey(key, at: keyStart)
                        stack[top].values.append(key)
                    case UInt8(ascii: "="):
                        pos += 1
                        stack[top].appendKey(key, at: keyStart)
                        state = .value
                    default:
                        throw error(.malformed, "expected '=' or ';' after the key, found \(describeCharacter(at: pos))")
                    }
                } else if stack[top].kind == .stringsFile {
                    if found { throw error(.malformed, "expected a key, found \(describeCharacter(at: pos))") }
                    state = .complete(pop())
                } else {
                    guard found else { throw endsInside("; expected '}'") }
                    guard text[pos] == UInt8(ascii: "}") else {
                        throw error(.malformed, "expected a key or '}', found \(describeCharacter(at: pos))")
                    }
                    pos += 1
                    state = .complete(pop())
                }

            case .element:
                guard try skipSpace() else { throw endsInside("; expected ')'") }
                let c = text[pos]
                if c == UInt8(ascii: ")") {
                    pos += 1
                    state = .complete(pop())
                } else if isValueStart(c) {
                    state = .value
                } else {
                    throw error(.malformed, "expected a value or ')', found \(describeCharacter(at: pos))")
                }

            case .complete(let value):
                guard !stack.isEmpty else {
                    if try skipSpace() {
                        throw error(.malformed, "unexpected \(describeCharacter(at: pos)) after the root value")
                    }
                    return value
                }
                let top = stack.count - 1
                if stack[top].kind == .array {
                    stack[top].values.append(value)
                    guard try skipSpace() else { throw endsInside("; expected ',' or ')'") }
                    switch text[pos] {
                    case UInt8(ascii: ","):
                        pos += 1
                        state = .element
                    case UInt8(ascii: ")"):
                        pos += 1
                        state = .complete(pop())
                    default:
                        throw error(.malformed, "expected ',' or ')' after an array element, found \(describeCharacter(at: pos))")
                    }
                } else {
                    stack[top].values.append(value)
                    guard try skipSpace() else { throw endsInside("; expected ';' after the value") }
                    guard text[pos] == UInt8(ascii: ";") else {
                        throw error(.malformed, "expected ';' after the value, found \(describeCharacter(at: pos))")
                    }
                    pos += 1
                    state = .key
                }
            }
        }
    }

    // MARK: Whitespace and comments

    /// Skips whitespace and comments. Returns whether anything follows them.
    private mutating func skipSpace() throws(PropertyListError) -> Bool {
        while pos < end {
            switch text[pos] {
            case 0x09...0x0D, 0x20:
                pos += 1
            case 0xE2 where isLineOrParagraphSeparator(at: pos):
                pos += 3
            case UInt8(ascii: "/"):
                guard pos + 1 < end else { return true }
                if text[pos + 1] == UInt8(ascii: "/") {
                    pos += 2
                    while pos < end, text[pos] != 0x0A, text[pos] != 0x0D, !isLineOrParagraphSeparator(at: pos) {
                        pos += 1
                    }
                } else if text[pos + 1] == UInt8(ascii: "*") {
                    let start = pos
                    pos += 2
                    while true {
                        guard pos + 1 < end else {
                            // CF treats the rest of the file as comment; a lint must say so.
                            throw error(.truncated, "unterminated /* comment", at: start)
                        }
                        if text[pos] == UInt8(ascii: "*"), text[pos + 1] == UInt8(ascii: "/") {
                            pos += 2
                            break
                        }
                        pos += 1
                    }
                } else {
                    return true
                }
            default:
                return true
            }
        }
        return false
    }

    /// U+2028 and U+2029, which CF counts as whitespace.
    @inline(__always)
    private func isLineOrParagraphSeparator(at i: Int) -> Bool {
        i + 2 < end && text[i] == 0xE2 && text[i + 1] == 0x80 && (text[i + 2] == 0xA8 || text[i + 2] == 0xA9)
    }

    // MARK: Scalars

    @inline(__always)
    private func isUnquoted(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        case 0x80...:
            // Non-ASCII letters, as GNUstep and dd-plist accept (CF does not).
            return true
        default:
            return false
        }
    }

    @inline(__always)
    private func isStringStart(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || isUnquoted(c)
    }

    @inline(__always)
    private func isValueStart(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "{") || c == UInt8(ascii: "(") || c == UInt8(ascii: "<") || isStringStart(c)
    }

    private mutating func parseScalar() throws(PropertyListError) -> PropertyListValue {
        let c = text[pos]
        if c == UInt8(ascii: "<") { return try parseAngle() }
        if isStringStart(c) { return try parseString() }
        throw error(.malformed, "unexpected \(describeCharacter(at: pos))")
    }

    private mutating func parseString() throws(PropertyListError) -> PropertyListValue {
        let c = text[pos]
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { return try parseQuoted(quote: c) }
        return try parseUnquoted()
    }

    private mutating func parseUnquoted() throws(PropertyListError) -> PropertyListValue {
        let start = pos
        while pos < end, isUnquoted(text[pos]), !isLineOrParagraphSeparator(at: pos) { pos += 1 }
        try countObject()
        try countBytes(pos - start)
        return .string(String(decoding: UnsafeBufferPointer(rebasing: text[start..<pos]), as: UTF8.self))
    }

    private mutating func parseQuoted(quote: UInt8) throws(PropertyListError) -> PropertyListValue {
        let open = pos
        pos += 1
        let start = pos
        try countObject()
        // Fast path: no escapes.
        while pos < end {
            let b = text[pos]
            if b == quote || b == UInt8(ascii: "\\") || b == 0 { break }
            pos += 1
        }
        guard pos < end else { throw error(.truncated, "unterminated quoted string", at: open) }
        if text[pos] == quote {
            let slice = UnsafeBufferPointer(rebasing: text[start..<pos])
            pos += 1
            try countBytes(slice.count)
            return .string(String(decoding: slice, as: UTF8.self))
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<pos]))
        var hasLoneSurrogate = false
        while true {
            guard pos < end else { throw error(.truncated, "unterminated quoted string", at: open) }
            let b = text[pos]
            if b == quote {
                pos += 1
                break
            }
            if b == 0 { throw error(.malformed, "NUL character in a quoted string") }
            if b != UInt8(ascii: "\\") {
                let runStart = pos
                while pos < end, text[pos] != quote, text[pos] != UInt8(ascii: "\\"), text[pos] != 0 { pos += 1 }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<pos]))
                continue
            }
            let escapeStart = pos
            pos += 1
            guard pos < end else { throw error(.truncated, "unterminated quoted string", at: open) }
            let e = text[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "a"): scratch.append(0x07)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "v"): scratch.append(0x0B)
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), 0x0A, 0x0D:
                // CF passes the character through; a backslash before a line break continues the string.
                scratch.append(e)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // One to three octal digits of a NeXTSTEP-encoded byte, wrapping at 8 bits as CF does.
                var byte = e &- UInt8(ascii: "0")
                for _ in 0..<2 {
                    guard pos < end, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(text[pos]) else { break }
                    byte = byte &<< 3 &+ (text[pos] &- UInt8(ascii: "0"))
                    pos += 1
                }
                TextDecoding.appendGeneralizedUTF8(Self.nextStepToUnicode(byte), to: &scratch)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                // One to four hex digits of a UTF-16 code unit; two escapes may form a surrogate pair.
                let unit = readHexUnit()
                if (0xD800...0xDBFF).contains(unit), pos + 1 < end, text[pos] == UInt8(ascii: "\\"),
                    text[pos + 1] == UInt8(ascii: "U") || text[pos + 1] == UInt8(ascii: "u")
                {
                    let mark = pos
                    pos += 2
                    let low = readHexUnit()
                    if (0xDC00...0xDFFF).contains(low) {
                        let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        TextDecoding.appendGeneralizedUTF8(scalar, to: &scratch)
                        continue
                    }
                    pos = mark
                }
                if (0xD800...0xDFFF).contains(unit) {
                    if options.preservesInvalidUTF16 {
                        hasLoneSurrogate = true
                        TextDecoding.appendGeneralizedUTF8(UInt32(unit), to: &scratch)
                    } else {
                        // What Swift's String makes of CF's lone surrogate.
                        TextDecoding.appendGeneralizedUTF8(0xFFFD, to: &scratch)
                    }
                } else {
                    TextDecoding.appendGeneralizedUTF8(UInt32(unit), to: &scratch)
                }
            default:
                throw error(.malformed, "unknown escape '\\\(describeEscaped(e))' in a quoted string", at: escapeStart)
            }
        }
        try countBytes(scratch.count)
        if hasLoneSurrogate {
            return .invalidUTF16String(TextDecoding.utf16Units(ofGeneralizedUTF8: scratch))
        }
        return .string(String(decoding: scratch, as: UTF8.self))
    }

    /// Up to four hex digits; none gives 0, as in CF.
    private mutating func readHexUnit() -> UInt16 {
        var value: UInt16 = 0
        var digits = 0
        while digits < 4, pos < end, let v = Self.hexValue(text[pos]) {
            value = value << 4 | UInt16(v)
            pos += 1
            digits += 1
        }
        return value
    }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Data and GNUstep values

    private mutating func parseAngle() throws(PropertyListError) -> PropertyListValue {
        let open = pos
        pos += 1
        guard pos < end else { throw error(.truncated, "unterminated data: expected '>'", at: open) }
        switch text[pos] {
        case UInt8(ascii: "*"): return try parseGNUstepValue(open: open)
        case UInt8(ascii: "["): return try parseBase64(open: open)
        default: break
        }
        try countObject()
        var bytes: [UInt8] = []
        while true {
            guard pos < end else { throw error(.truncated, "unterminated data: expected '>'", at: open) }
            let c = text[pos]
            if c == UInt8(ascii: ">") {
                pos += 1
                break
            }
            if let high = Self.hexValue(c) {
                guard pos + 1 < end, let low = Self.hexValue(text[pos + 1]) else {
                    throw error(.malformed, "odd number of hex digits in data", at: pos)
                }
                bytes.append(high << 4 | low)
                pos += 2
            } else if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                pos += 1
            } else if isLineOrParagraphSeparator(at: pos) {
                pos += 3
            } else {
                throw error(.malformed, "unexpected \(describeCharacter(at: pos)) in data")
            }
        }
        try countBytes(bytes.count)
        return .data(Data(bytes))
    }

    /// GNUstep's `<*I…>`, `<*R…>`, `<*B…>` and `<*D…>`.
    private mutating func parseGNUstepValue(open: Int) throws(PropertyListError) -> PropertyListValue {
        pos += 1
        guard pos < end else { throw error(.truncated, "unterminated GNUstep value: expected '>'", at: open) }
        let type = text[pos]
        pos += 1
        let bodyStart = pos
        while pos < end, text[pos] != UInt8(ascii: ">") { pos += 1 }
        guard pos < end else { throw error(.truncated, "unterminated GNUstep value: expected '>'", at: open) }
        let body = UnsafeBufferPointer(rebasing: text[bodyStart..<pos])
        pos += 1
        try countObject()
        switch type {
        case UInt8(ascii: "I"):
            guard let value = Self.parseInteger(body) else {
                throw error(.invalidValue, "invalid GNUstep integer '\(String(decoding: body, as: UTF8.self))'", at: open)
            }
            return .integer(value)
        case UInt8(ascii: "R"):
            let string = String(decoding: body, as: UTF8.self)
            guard !body.isEmpty, !body.contains(where: { $0 <= 0x20 }), let value = Double(string) else {
                throw error(.invalidValue, "invalid GNUstep real '\(string)'", at: open)
            }
            return .real(value)
        case UInt8(ascii: "B"):
            if body.count == 1, body[0] == UInt8(ascii: "Y") { return .bool(true) }
            if body.count == 1, body[0] == UInt8(ascii: "N") { return .bool(false) }
            throw error(.invalidValue, "invalid GNUstep boolean '\(String(decoding: body, as: UTF8.self))': expected Y or N", at: open)
        case UInt8(ascii: "D"):
            guard let date = Self.parseGNUstepDate(body) else {
                throw error(
                    .invalidValue, "invalid GNUstep date '\(String(decoding: body, as: UTF8.self))': expected YYYY-MM-DD HH:MM:SS +ZZZZ",
                    at: open)
            }
            return .date(date)
        default:
            throw error(.malformed, "unknown GNUstep value type \(describeCharacter(at: bodyStart - 1))", at: open)
        }
    }

    /// GNUstep's base64 data, `<[…]>`.
    private mutating func parseBase64(open: Int) throws(PropertyListError) -> PropertyListValue {
        pos += 1
        let bodyStart = pos
        while pos < end, text[pos] != UInt8(ascii: "]") { pos += 1 }
        guard pos + 1 < end, text[pos + 1] == UInt8(ascii: ">") else {
            throw error(.truncated, "unterminated base64 data: expected ']>'", at: open)
        }
        let body = UnsafeBufferPointer(rebasing: text[bodyStart..<pos])
        pos += 2
        try countObject()
        guard let bytes = Self.decodeBase64(body) else { throw error(.invalidValue, "invalid base64 data", at: open) }
        try countBytes(bytes.count)
        return .data(Data(bytes))
    }

    static func parseInteger(_ body: UnsafeBufferPointer<UInt8>) -> PropertyListInteger? {
        var i = 0
        var negative = false
        if i < body.count, body[i] == UInt8(ascii: "-") || body[i] == UInt8(ascii: "+") {
            negative = body[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < body.count else { return nil }
        var value: Int128 = 0
        while i < body.count {
            let d = body[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int128(d)) : m.addingReportingOverflow(Int128(d))
            guard !o1, !o2 else { return nil }
            value = s
            i += 1
        }
        return PropertyListInteger(value)
    }

    /// `YYYY-MM-DD HH:MM:SS ±HHMM`, as GNUstep writes dates, in the proleptic Gregorian calendar.
    static func parseGNUstepDate(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= b.count else { return nil }
            var v = 0
            for k in 0..<digits {
                let d = b[i + k] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            i += digits
            return v
        }
        func expect(_ c: Character) -> Bool {
            guard i < b.count, let ascii = c.asciiValue, b[i] == ascii else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2), expect(" "),
            let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2), expect(" "),
            i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")
        else { return nil }
        let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let zoneHours = number(2), let zoneMinutes = number(2), i == b.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= GregorianDateTime.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60, zoneHours < 24, zoneMinutes < 60
        else { return nil }
        let days1970 = GregorianDateTime.daysSince1970(year: year, month: month, day: day)
        let offset = sign * (zoneHours * 3600 + zoneMinutes * 60)
        let seconds1970 = days1970 * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds1970))
    }

    /// Standard base64, whitespace ignored, padding optional.
    static func decodeBase64(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(b.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var symbols = 0
        var padding = 0
        for c in b {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return nil
            }
            guard padding == 0 else { return nil }  // nothing after padding
            symbols += 1
            accumulator = accumulator << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard symbols % 4 != 1, padding <= 2, padding == 0 || (symbols + padding) % 4 == 0 else { return nil }
        return out
    }

    /// NeXTSTEP-encoded bytes 0x80…0xFD as Unicode (unicode.org's NEXTSTEP.TXT, which CF uses).
    private static let nextStepHigh: [UInt16] = [
        0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7, 0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF,
        0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9, 0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00B5, 0x00D7, 0x00F7,
        0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7, 0x00A4, 0x2019, 0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022, 0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF,
        0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9, 0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7,
        0x2014, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00E0, 0x00E1, 0x00E2, 0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB,
        0x00EC, 0x00C6, 0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1, 0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
        0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD, 0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF,
    ]

    /// The character CF gives an octal escape: ASCII below 0x80, NeXTSTEP above, and U+0000 for
    /// the two bytes NeXTSTEP leaves undefined (0xFE, 0xFF).
    static func nextStepToUnicode(_ byte: UInt8) -> UInt32 {
        if byte < 0x80 { return UInt32(byte) }
        let i = Int(byte) - 0x80
        return i < nextStepHigh.count ? UInt32(nextStepHigh[i]) : 0
    }
}
