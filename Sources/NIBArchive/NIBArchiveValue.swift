import Foundation

/// One value of a nib: the key it is stored under and what it holds.
public struct NIBArchiveValue: Sendable, Hashable {
    /// An index into `NIBArchive.keys`.
    public var keyIndex: Int
    public var content: Content

    public init(keyIndex: Int, content: Content) {
        self.keyIndex = keyIndex
        self.content = content
    }

    /// The eleven value types, by their type byte (0 to 10). Integers are little-endian and
    /// signed; Xcode writes a negative number with 8 bytes, as binary plists do.
    public enum Content: Sendable, Hashable {
        case int8(Int8)
        case int16(Int16)
        case int32(Int32)
        case int64(Int64)
        /// Type bytes 4 (true) and 5 (false): no bytes follow.
        case bool(Bool)
        case float(Float)
        case double(Double)
        /// A varint length and that many bytes: the UTF-8 of an `NSString` (`NS.bytes`), an
        /// `NSData`, geometry, or a whole nested NIBArchive.
        case data(Data)
        case null
        /// A 32-bit index into `NIBArchive.objects` (checked when read).
        case object(Int)

        /// The type byte that introduces this value.
        public var typeByte: UInt8 {
            switch self {
            case .int8: 0
            case .int16: 1
            case .int32: 2
            case .int64: 3
            case .bool(let b): b ? 4 : 5
            case .float: 6
            case .double: 7
            case .data: 8
            case .null: 9
            case .object: 10
            }
        }

        /// The integer, for the four integer types.
        public var integerValue: Int64? {
            switch self {
            case .int8(let v): Int64(v)
            case .int16(let v): Int64(v)
            case .int32(let v): Int64(v)
            case .int64(let v): v
            default: nil
            }
        }
    }
}
