import Foundation

/// NeXT's serialized property lists, as `-[NSArchiver encodePropertyList:]` (and NSSerializer)
/// write them inside a typedstream's data object: NSFont writes its name so.
///
/// Every number is a 32-bit little-endian word. A value is its type word, then: 4 data, 5 a
/// NeXTSTEP-encoded string, 6 a UTF-16 string with its byte-order mark (each: a byte count, the
/// bytes, zero padding to a multiple of 4); 2 an array and 7 a dictionary (a count, a dictionary's
/// keys, then each value's length in bytes, then the values); 8 nil. (pytypedstream's
/// old_binary_plist.py and Darling's NSDeserializer.m describe it.)
public enum SerializedPropertyList {
    /// A value of the format.
    public enum Value: Sendable, Hashable {
        case string(String)
        case data(Data)
        case array([Value])
        case dictionary([(key: String, value: Value)])
        case null

        public static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case let (.string(x), .string(y)): x == y
            case let (.data(x), .data(y)): x == y
            case let (.array(x), .array(y)): x == y
            case let (.dictionary(x), .dictionary(y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            case (.null, .null): true
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .string(let s): hasher.combine(s)
            case .data(let d): hasher.combine(d)
            case .array(let a): hasher.combine(a)
            case .dictionary(let d): for entry in d { hasher.combine(entry.key); hasher.combine(entry.value) }
            case .null: hasher.combine(0)
            }
        }
    }

    /// Why bytes are not a serialized property list.
    public struct Failure: Error, Sendable, Hashable {
        public var message: String
        public var offset: Int
    }

    /// Reads one value that fills `data` exactly; nesting stops at `maximumDepth`.
    public static func read(_ data: Data, maximumDepth: Int = 64) throws(Failure) -> Value {
        var reader = Reader(bytes: [UInt8](data), maximumDepth: maximumDepth)
        let value = try reader.value(depth: 0)
        guard reader.position == reader.bytes.count else {
            throw Failure(message: "\(reader.bytes.count - reader.position) bytes after the value", offset: reader.position)
        }
        return value
    }

    struct Reader {
        let bytes: [UInt8]
        let maximumDepth: Int
        var position = 0

        mutating func word() throws(Failure) -> Int {
            guard bytes.count - position >= 4 else { throw Failure(message: "truncated", offset: position) }
            defer { position += 4 }
            return Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16 | Int(bytes[position + 3]) << 24
        }

        mutating func padded() throws(Failure) -> ArraySlice<UInt8> {
            let count = try word()
            let padding = (4 - count % 4) % 4
            guard count <= bytes.count - position, padding <= bytes.count - position - count else {
                throw Failure(message: "a length of \(count) past the end", offset: position - 4)
            }
            defer { position += count + padding }
            return bytes[position ..< position + count]
        }

        mutating func value(depth: Int) throws(Failure) -> Value {
            guard depth < maximumDepth else { throw Failure(message: "nested deeper than \(maximumDepth)", offset: position) }
            let start = position
            switch try word() {
            case 4: return .data(Data(try padded()))
            case 5: return .string(String(try padded().map { Character(Unicode.Scalar(Self.nextStep[Int($0)]) ?? "\u{FFFD}") }))
            case 6:
                let raw = try padded()
                guard raw.count % 2 == 0 else { throw Failure(message: "a UTF-16 string of an odd byte count", offset: start) }
                var units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8 }
                // The byte-order mark says which way the units run.
                if units.first == 0xFFFE { units = units.map(\.byteSwapped) }
                if units.first == 0xFEFF { units.removeFirst() }
                return .string(String(decoding: units, as: UTF16.self))
            case 2, 7:
                let dictionary = bytes[start] == 7
                let count = try word()
                // Each element takes at least 4 bytes, its length word 4 more.
                guard count <= (bytes.count - position) / 8 else { throw Failure(message: "a count of \(count) past the end", offset: start + 4) }
                var keys: [String] = []
                if dictionary {
                    for _ in 0 ..< count {
                        guard case .string(let key) = try value(depth: depth + 1) else { throw Failure(message: "a dictionary key that is not a string", offset: position) }
                        keys.append(key)
                    }
                }
                var lengths: [Int] = []
                for _ in 0 ..< count { lengths.append(try word()) }
                var values: [Value] = []
                for length in lengths {
                    let before = position
                    values.append(try value(depth: depth + 1))
                    guard position - before == length else { throw Failure(message: "a value of \(position - before) bytes where its length says \(length)", offset: before) }
                }
                return dictionary ? .dictionary(zip(keys, values).map { ($0, $1) }) : .array(values)
            case 8: return .null
            case let type: throw Failure(message: "unknown type \(type)", offset: start)
            }
        }

        /// The NeXTSTEP character set's bytes 0x80–0xFF as Unicode scalars (0xFFFD for the two
        /// unassigned ones); below 0x80 it is ASCII.
        static let nextStep: [UInt32] = Array(0 ..< 0x80) + [
            0xA0, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC7, 0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF,
            0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xB5, 0xD7, 0xF7,
            0xA9, 0xA1, 0xA2, 0xA3, 0x2044, 0xA5, 0x192, 0xA7, 0xA4, 0x2019, 0x201C, 0xAB, 0x2039, 0x203A, 0xFB01, 0xFB02,
            0xAE, 0x2013, 0x2020, 0x2021, 0xB7, 0xA6, 0xB6, 0x2022, 0x201A, 0x201E, 0x201D, 0xBB, 0x2026, 0x2030, 0xAC, 0xBF,
            0xB9, 0x2CB, 0xB4, 0x2C6, 0x2DC, 0xAF, 0x2D8, 0x2D9, 0xA8, 0xB2, 0x2DA, 0xB8, 0xB3, 0x2DD, 0x2DB, 0x2C7,
            0x2014, 0xB1, 0xBC, 0xBD, 0xBE, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE7, 0xE8, 0xE9, 0xEA, 0xEB,
            0xEC, 0xC6, 0xED, 0xAA, 0xEE, 0xEF, 0xF0, 0xF1, 0x141, 0xD8, 0x152, 0xBA, 0xF2, 0xF3, 0xF4, 0xF5,
            0xF6, 0xE6, 0xF9, 0xFA, 0xFB, 0x131, 0xFC, 0xFD, 0x142, 0xF8, 0x153, 0xDF, 0xFE, 0xFF, 0xFFFD, 0xFFFD,
        ]
    }
}
