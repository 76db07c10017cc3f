import Foundation

/// The parser behind `JSONPropertyListReader`, scanning validated UTF-8 bytes.
///
/// Like the OpenStep parser it keeps an explicit stack of open containers, so nesting costs
/// heap rather than thread stack whatever depth limit the caller allows.
struct JSONParser: TextPropertyListParser {
    let text: UnsafeBufferPointer<UInt8>
    let end: Int
    var pos = 0
    let options: PropertyListReadOptions
    var objectCount = 0
    var decodedSize = 0
    /// Reused for strings with escapes.
    private var scratch: [UInt8] = []
    var stack: [OpenTextCollection<Kind>] = []
    var warnings: [PropertyListWarning] = []

    enum Kind: TextCollectionKind {
        case object, array
        var isArray: Bool { self == .array }
        var noun: String { self == .array ? "array" : "object" }
    }

    private enum State {
        case value
        /// After `{`: a key or `}`.
        case firstKey
        /// After `,` in an object: a key.
        case key
        /// After `[`: a value or `]`.
        case firstElement
        case complete(PropertyListValue)
    }

    init(text: UnsafeBufferPointer<UInt8>, options: PropertyListReadOptions) {
        self.text = text
        self.end = text.count
        self.options = options
    }

    mutating func parseDocument() throws(PropertyListError) -> PropertyListValue {
        var state = State.value
        while true {
            switch state {
            case .value:
                guard skipSpace() else { throw endsInside(stack.isEmpty ? "before any value" : "where a value should start") }
                switch text[pos] {
                case UInt8(ascii: "{"):
                    try push(.object)
                    pos += 1
                    state = .firstKey
                case UInt8(ascii: "["):
                    try push(.array)
                    pos += 1
                    state = .firstElement
                case UInt8(ascii: "\""):
                    state = .complete(try parseString())
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    state = .complete(try parseNumber())
                case UInt8(ascii: "t"):
                    state = .complete(try parseLiteral("true", .bool(true)))
                case UInt8(ascii: "f"):
                    state = .complete(try parseLiteral("false", .bool(false)))
                case UInt8(ascii: "n"):
                    state = .complete(try parseLiteral("null", .null))
                default:
                    throw error(.malformed, "unexpected \(describeCharacter(at: pos)); expected a value")
                }

            case .firstKey, .key:
                guard skipSpace() else { throw endsInside("; expected a key") }
                if case .firstKey = state, text[pos] == UInt8(ascii: "}") {
                    pos += 1
                    state = .complete(pop())
                    continue
                }
                guard text[pos] == UInt8(ascii: "\"") else {
                    throw error(.malformed, "expected a string key, found \(describeCharacter(at: pos))")
                }
                let keyStart = pos
                let key = try parseString()
                guard skipSpace() else { throw endsInside("after a key; expected ':'") }
                guard text[pos] == UInt8(ascii: ":") else {
                    throw error(.malformed, "expected ':' after the key, found \(describeCharacter(at: pos))")
                }
                pos += 1
                stack[stack.count - 1].appendKey(key, at: keyStart)
                state = .value

            case .firstElement:
                guard skipSpace() else { throw endsInside("; expected ']'") }
                if text[pos] == UInt8(ascii: "]") {
                    pos += 1
                    state = .complete(pop())
                } else {
                    state = .value
                }

            case .complete(let value):
                guard !stack.isEmpty else {
                    if skipSpace() { throw error(.malformed, "unexpected \(describeCharacter(at: pos)) after the root value") }
                    return value
                }
                let top = stack.count - 1
                stack[top].values.append(value)
                let isObject = stack[top].kind == .object
                guard skipSpace() else { throw endsInside(isObject ? "; expected ',' or '}'" : "; expected ',' or ']'") }
                let c = text[pos]
                if c == UInt8(ascii: ",") {
                    pos += 1
                    state = isObject ? .key : .value
                } else if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    state = .complete(pop())
                } else {
                    throw error(
                        .malformed,
                        "expected ',' or '\(isObject ? "}" : "]")' after \(isObject ? "a member" : "an element"), found \(describeCharacter(at: pos))"
                    )
                }
            }
        }
    }

    /// Skips JSON's four whitespace characters. Returns whether anything follows.
    @inline(__always)
    private mutating func skipSpace() -> Bool {
        while pos < end {
            switch text[pos] {
            case 0x20, 0x0A, 0x0D, 0x09: pos += 1
            default: return true
            }
        }
        return false
    }

    // MARK: Scalars

    private mutating func parseLiteral(_ word: StaticString, _ value: PropertyListValue) throws(PropertyListError) -> PropertyListValue {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { w in
            pos + count <= end && (0..<count).allSatisfy { text[pos + $0] == w[$0] }
        }
        guard matches else { throw error(.malformed, "unexpected \(describeCharacter(at: pos)); expected a value") }
        pos += count
        try countObject()
        return value
    }

    private mutating func parseNumber() throws(PropertyListError) -> PropertyListValue {
        let start = pos
        var negative = false
        if text[pos] == UInt8(ascii: "-") {
            negative = true
            pos += 1
        }
        guard pos < end, isDigit(text[pos]) else { throw error(.malformed, "expected a digit after '-'") }
        // Integer part: 0, or digits without a leading zero. Accumulate while it fits 128 bits.
        var integer: Int128 = 0
        var fits = true
        if text[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end, isDigit(text[pos]) { throw error(.malformed, "leading zeros are not allowed in a number", at: start) }
        } else {
            while pos < end, isDigit(text[pos]) {
                if fits {
                    let d = Int128(text[pos] - UInt8(ascii: "0"))
                    let (m, o1) = integer.multipliedReportingOverflow(by: 10)
                    let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
                    if o1 || o2 { fits = false } else { integer = s }
                }
                pos += 1
            }
        }
        var isInteger = true
        if pos < end, text[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < end, isDigit(text[pos]) else { throw error(.malformed, "expected a digit after the decimal point") }
            while pos < end, isDigit(text[pos]) { pos += 1 }
        }
        if pos < end, text[pos] == UInt8(ascii: "e") || text[pos] == UInt8(ascii: "E") {
            isInteger = false
            pos += 1
            if pos < end, text[pos] == UInt8(ascii: "+") || text[pos] == UInt8(ascii: "-") { pos += 1 }
            guard pos < end, isDigit(text[pos]) else { throw error(.malformed, "expected a digit in the exponent") }
            while pos < end, isDigit(text[pos]) { pos += 1 }
        }
        try countObject()
        // "-0" is a real: only -0.0 is written that way, and its sign survives the round trip.
        if isInteger && fits && !(negative && integer == 0) { return .integer(PropertyListInteger(integer)) }
        // Most reals (all that a writer of shortest spellings writes) need no `strtod`.
        if let value = DecimalText.double(UnsafeBufferPointer(rebasing: text[start..<pos])) { return .real(value) }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: text[start..<pos]), as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw error(.invalidValue, "the number \(literal) is too large for a 64-bit real", at: start)
        }
        return .real(value)
    }

    @inline(__always)
    private func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    private mutating func parseString() throws(PropertyListError) -> PropertyListValue {
        let open = pos
        pos += 1
        let start = pos
        try countObject()
        while pos < end {
            let b = text[pos]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
            pos += 1
        }
        guard pos < end else { throw error(.truncated, "unterminated string", at: open) }
        if text[pos] == UInt8(ascii: "\"") {
            let slice = UnsafeBufferPointer(rebasing: text[start..<pos])
            pos += 1
            try countBytes(slice.count)
            return .string(String(decoding: slice, as: UTF8.self))
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<pos]))
        var hasLoneSurrogate = false
        while true {
            guard pos < end else { throw error(.truncated, "unterminated string", at: open) }
            let b = text[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                break
            }
            if b < 0x20 {
                throw error(.malformed, "unescaped control character 0x\(TextDecoding.hex(b)) in a string")
            }
            if b != UInt8(ascii: "\\") {
                let runStart = pos
                while pos < end, text[pos] != UInt8(ascii: "\""), text[pos] != UInt8(ascii: "\\"), text[pos] >= 0x20 { pos += 1 }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<pos]))
                continue
            }
            let escapeStart = pos
            pos += 1
            guard pos < end else { throw error(.truncated, "unterminated string", at: open) }
            let e = text[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                let unit = try readUnicodeEscape(escapeStart)
                if (0xD800...0xDBFF).contains(unit), pos + 1 < end, text[pos] == UInt8(ascii: "\\"), text[pos + 1] == UInt8(ascii: "u") {
                    let mark = pos
                    pos += 2
                    let low = try readUnicodeEscape(mark)
                    if (0xDC00...0xDFFF).contains(low) {
                        let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        TextDecoding.appendGeneralizedUTF8(scalar, to: &scratch)
                        continue
                    }
                    pos = mark
                }
                if (0xD800...0xDFFF).contains(unit) {
                    guard options.preservesInvalidUTF16 else {
                        throw error(
                            .invalidValue, "unpaired UTF-16 surrogate \\u\(String(unit, radix: 16, uppercase: true)) in a string",
                            at: escapeStart)
                    }
                    hasLoneSurrogate = true
                }
                TextDecoding.appendGeneralizedUTF8(UInt32(unit), to: &scratch)
            default:
                throw error(.malformed, "invalid escape '\\\(describeEscaped(e))' in a string", at: escapeStart)
            }
        }
        try countBytes(scratch.count)
        if hasLoneSurrogate {
            return .invalidUTF16String(TextDecoding.utf16Units(ofGeneralizedUTF8: scratch))
        }
        return .string(String(decoding: scratch, as: UTF8.self))
    }

    /// Exactly four hex digits after `\u`.
    private mutating func readUnicodeEscape(_ escapeStart: Int) throws(PropertyListError) -> UInt16 {
        guard pos + 4 <= end else { throw error(.malformed, "\\u needs four hex digits", at: escapeStart) }
        var value: UInt16 = 0
        for k in 0..<4 {
            let c = text[pos + k]
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: throw error(.malformed, "\\u needs four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt16(v)
        }
        pos += 4
        return value
    }
}
