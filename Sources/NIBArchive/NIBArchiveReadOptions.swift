/// Limits for reading a NIBArchive, each with a default that real nibs stay far below.
///
/// Every count in the header is also checked against the bytes that could hold it, so these
/// limits bound what a large but well-formed file may cost, not what a small one may claim.
public struct NIBArchiveReadOptions: Sendable, Hashable {
    /// The most objects an archive may have. Default 10,000,000.
    public var maximumObjectCount: Int = 10_000_000
    /// The most values (fields of all objects) an archive may have. Default 50,000,000.
    public var maximumValueCount: Int = 50_000_000
    /// The most keys, and the most class names, an archive may have. Default 1,000,000 each.
    public var maximumNameCount: Int = 1_000_000

    public init() {}

    public static let `default` = NIBArchiveReadOptions()
}
