/// Parses a typedstream's type encoding string into its types.
///
/// The grammar is the Objective-C runtime's `@encode` one, limited to what NSArchiver writes:
/// one character per scalar, `[count type]`, `{name=types}`, `(name=types)` and `^type`. Type
/// qualifiers (`r n N o O R V`) are skipped as the runtime skips them. Nesting is bounded by the
/// read options' depth, counts by overflow checks.
struct ObjCTypeEncodingParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var position = 0

    /// The problem with an encoding, and where in it.
    struct Failure: Error {
        var message: String
    }

    init(_ bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Every type of the string, in order.
    static func types(of encoding: [UInt8], maximumDepth: Int) throws(Failure) -> [ObjCType] {
        var parser = ObjCTypeEncodingParser(encoding, maximumDepth: maximumDepth)
        var types: [ObjCType] = []
        while parser.position < encoding.count {
            types.append(try parser.parseType(depth: 0))
        }
        return types
    }

    mutating func parseType(depth: Int) throws(Failure) -> ObjCType {
        guard depth < maximumDepth else { throw Failure(message: "the type encoding nests deeper than \(maximumDepth)") }
        // Qualifiers: const, in, inout, out, bycopy, byref, oneway.
        while position < bytes.count, Self.qualifiers.contains(bytes[position]) { position += 1 }
        guard position < bytes.count else { throw Failure(message: "the type encoding ends where a type should be") }
        let code = bytes[position]
        position += 1
        switch code {
        case UInt8(ascii: "c"): return .char
        case UInt8(ascii: "C"): return .unsignedChar
        case UInt8(ascii: "s"): return .short
        case UInt8(ascii: "S"): return .unsignedShort
        case UInt8(ascii: "i"): return .int
        case UInt8(ascii: "I"): return .unsignedInt
        case UInt8(ascii: "l"): return .long
        case UInt8(ascii: "L"): return .unsignedLong
        case UInt8(ascii: "q"): return .longLong
        case UInt8(ascii: "Q"): return .unsignedLongLong
        case UInt8(ascii: "f"): return .float
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "B"): return .bool
        case UInt8(ascii: "*"): return .cString
        case UInt8(ascii: "%"): return .atom
        case UInt8(ascii: ":"): return .selector
        case UInt8(ascii: "+"): return .unsharedString
        case UInt8(ascii: "#"): return .classObject
        case UInt8(ascii: "@"): return .object
        case UInt8(ascii: "!"): return .ignored
        case UInt8(ascii: "^"): return .pointer(try parseType(depth: depth + 1))
        case UInt8(ascii: "["):
            var count = 0
            var digits = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                let (times, overflow1) = count.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[position] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2, sum <= Int(Int32.max) else { throw Failure(message: "an array count in the type encoding is too large") }
                count = sum
                digits += 1
                position += 1
            }
            guard digits > 0 else { throw Failure(message: "an array type has no count") }
            let element = try parseType(depth: depth + 1)
            try expect(UInt8(ascii: "]"), "an array type is not closed by ]")
            return .array(count: count, element: element)
        case UInt8(ascii: "{"):
            let name = parseName(closing: UInt8(ascii: "}"))
            var fields: [ObjCType] = []
            while position < bytes.count, bytes[position] != UInt8(ascii: "}") {
                fields.append(try parseType(depth: depth + 1))
            }
            try expect(UInt8(ascii: "}"), "a struct type is not closed by }")
            return .structure(name: name, fields: fields)
        case UInt8(ascii: "("):
            let name = parseName(closing: UInt8(ascii: ")"))
            var largest = 0
            while position < bytes.count, bytes[position] != UInt8(ascii: ")") {
                largest = max(largest, try Self.neXTSize(of: parseType(depth: depth + 1)))
            }
            try expect(UInt8(ascii: ")"), "a union type is not closed by )")
            return .union(name: name, byteCount: largest)
        default:
            let shown = (0x21...0x7E).contains(code) ? "'\(Character(Unicode.Scalar(code)))'" : "byte 0x" + String(code, radix: 16)
            throw Failure(message: "the type encoding has \(shown), which is no type NSArchiver writes")
        }
    }

    /// A struct's or union's name up to `=`, when it has one: `{_NSPoint=ff}` has `_NSPoint`,
    /// `{?=ii}` has `?`, `{ii}` none.
    mutating func parseName(closing: UInt8) -> String? {
        var end = position
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "=") {
                let name = String(decoding: bytes[position..<end], as: UTF8.self)
                position = end + 1
                return name
            }
            if byte == closing || Self.opening.contains(byte) { return nil }
            end += 1
        }
        return nil
    }

    mutating func expect(_ byte: UInt8, _ message: String) throws(Failure) {
        guard position < bytes.count, bytes[position] == byte else { throw Failure(message: message) }
        position += 1
    }

    /// A member's size as NeXT's typedstream.m sized union members (32-bit ids and ints).
    static func neXTSize(of type: ObjCType) throws(Failure) -> Int {
        switch type {
        case .char, .unsignedChar, .bool: return 1
        case .short, .unsignedShort: return 2
        case .int, .unsignedInt, .long, .unsignedLong, .float, .ignored: return 4
        case .longLong, .unsignedLongLong, .double: return 8
        case .cString, .atom, .selector, .unsharedString, .classObject, .object, .pointer: return 4
        case .array(let count, let element):
            let (size, overflow) = count.multipliedReportingOverflow(by: try neXTSize(of: element))
            guard !overflow, size <= Int(Int32.max) else { throw Failure(message: "a union member is too large") }
            return size
        case .structure(_, let fields):
            var total = 0
            for field in fields {
                let (sum, overflow) = total.addingReportingOverflow(try neXTSize(of: field))
                guard !overflow, sum <= Int(Int32.max) else { throw Failure(message: "a union member is too large") }
                total = sum
            }
            return total
        case .union(_, let byteCount): return byteCount
        }
    }

    static let qualifiers: Set<UInt8> = Set("rnNoORV".utf8)
    static let opening: Set<UInt8> = Set("{[(^".utf8)
}
