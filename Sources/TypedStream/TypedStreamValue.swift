import Foundation

/// One value of a typedstream, as its type encoding says to read it.
///
/// Objects and classes are indexes into `TypedStream.objects` and `TypedStream.classes`, so an
/// object written once and referred to again is one object, and a cycle is an index back to an
/// object still being read.
public enum TypedStreamValue: Sendable, Hashable {
    /// `nil` for `@`, `Nil` for `#`, `NULL` for `*`, `%`, `:` and `+`.
    case null
    /// `c s i l q`: a signed integer.
    case integer(Int64)
    /// `C S I L Q`: an unsigned integer, read as the writer's C code read it (a 32-bit `-1`
    /// written for an `I` is 4294967295).
    case unsignedInteger(UInt64)
    /// `B`
    case bool(Bool)
    /// `f`
    case float(Float)
    /// `d`
    case double(Double)
    /// `*`, `%`: a C string's bytes, without the terminating zero.
    case cString([UInt8])
    /// `:`: a selector's name.
    case selector(String)
    /// `+`: bytes with a length (NSString's UTF-8 characters).
    case bytes(Data)
    /// `[n c]` and `[n C]`: a C array of bytes, kept as bytes.
    case byteArray(Data)
    /// `#`: a class, by index into `TypedStream.classes`.
    case classReference(Int)
    /// `@`: an object, by index into `TypedStream.objects`.
    case object(Int)
    /// `[n type]` of any other element type.
    case array([TypedStreamValue])
    /// `{…}`: a struct's fields in order.
    case structure(name: String?, fields: [TypedStreamValue])
    /// `(…)`: a union's raw bytes.
    case union(Data)
    /// `!`: a field the archiver skipped.
    case ignored

    /// The value as a signed integer, when it is one (or an unsigned one that fits).
    public var integerValue: Int64? {
        switch self {
        case .integer(let v): v
        case .unsignedInteger(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }

    /// The value as a real, when it is any number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .unsignedInteger(let v): Double(v)
        case .float(let v): Double(v)
        case .double(let v): v
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }

    /// The object index, when the value is an object.
    public var objectIndex: Int? {
        if case .object(let index) = self { return index }
        return nil
    }
}
