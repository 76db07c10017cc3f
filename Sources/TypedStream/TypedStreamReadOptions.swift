/// Limits for reading an NSArchiver typedstream, each with a default that real streams stay far
/// below.
///
/// A stream describes its own types, so a hostile one can ask for deep nesting (objects inside
/// objects, structs inside arrays), huge C arrays of zero-byte types, or millions of tiny
/// objects. Each limit stops one of those before it costs more than the bytes given.
public struct TypedStreamReadOptions: Sendable, Hashable {
    /// The deepest nesting of objects, arrays and structs inside one another, and of type
    /// encodings inside one another. Default 512, as Core Foundation's property-list readers.
    public var maximumDepth: Int = 512
    /// The most objects, classes and C strings a stream may introduce. Default 10,000,000.
    public var maximumObjectCount: Int = 10_000_000
    /// The most values (every integer, real, string, reference and element) a stream may hold.
    /// Only C arrays of types that take no bytes (`[1000000!]`) can come near it. Default
    /// 50,000,000.
    public var maximumValueCount: Int = 50_000_000
    /// The longest type encoding string, in bytes. Default 4,096.
    public var maximumEncodingLength: Int = 4_096

    public init() {}

    public static let `default` = TypedStreamReadOptions()
}
