import KeyedArchive

/// Limits for reading models from untrusted files. Real models are far below every default:
/// the largest corpus store's model (Microsoft Teams, 46 entities, 1,305 attributes) is 63 kB
/// compressed and 127 kB inflated.
public struct ModelReadOptions: Sendable, Hashable {
    /// The largest `Z_MODELCACHE` value or compiled `.mom` file read. Default 32 MB.
    public var maximumInputBytes: Int = 32 << 20
    /// The most bytes `Z_MODELCACHE` may inflate to; inflating stops there. Default 64 MB.
    public var maximumInflatedBytes: Int = 64 << 20
    /// The most entities a model may have. Default 10,000.
    public var maximumEntities: Int = 10_000
    /// The most properties one entity may have. Default 10,000.
    public var maximumPropertiesPerEntity: Int = 10_000
    /// The most versions a `.momd` or `.xcdatamodeld` may list. Default 1,000.
    public var maximumVersions: Int = 1_000
    /// Limits for the keyed archive inside (depth, objects, bytes).
    public var archive: KeyedArchiveReadOptions = .default

    public init() {}

    public static let `default` = ModelReadOptions()
}
