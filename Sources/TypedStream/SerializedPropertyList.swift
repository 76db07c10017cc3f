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
            case 5: return .string(String(try padded().map { Character(Self.nextStep($0)) }))
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

        /// A NeXTSTEP byte as a Unicode scalar (`NeXTSTEPCharacterSet`); U+FFFD for the two
        /// bytes NeXTSTEP leaves unassigned (0xFE, 0xFF).
        static func nextStep(_ byte: UInt8) -> Unicode.Scalar {
            NeXTSTEPCharacterSet.scalarValue(of: byte).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}"
        }
    }
}
