import ArchivePayload
import KeyedArchive
import PropertyList

/// How `ValueConverter` turns one stored value into the target format: the per-row part of a
/// migration, the same for a Core Data store and a PostgreSQL table.
public struct ConversionOptions: Sendable {
    public var target: ConversionTarget
    /// Archives with a class this list refuses are left as they are and reported.
    public var allowList: AllowList
    /// How archives map to payloads; `target` is set from `ConversionTarget`.
    public var payloadOptions: PayloadOptions
    /// Keep only this part of each payload (`.unbox` for the struct inside a box class).
    public var select: PayloadPath?
    /// Date, data and float spellings for JSON, as JSONEncoder's strategies.
    public var jsonOptions: JSONWriteOptions
    /// Limits for reading each stored value.
    public var readOptions: KeyedArchiveReadOptions
    /// With `.archive`: the classes to rename in every archive (`--rename-class OLD=NEW`).
    public var classRenames: [KeyedArchiveClassRenamer.Rename]
    /// With `.archive`: the class of the value at each payload path (`--class PATH=CLASS`), as
    /// `PayloadArchiver` takes them.
    public var archiveClasses: [String: String]

    public init(target: ConversionTarget, allowList: AllowList = .transformerDefault, payloadOptions: PayloadOptions = PayloadOptions(),
                select: PayloadPath? = nil, jsonOptions: JSONWriteOptions = JSONWriteOptions(),
                readOptions: KeyedArchiveReadOptions = .default, classRenames: [KeyedArchiveClassRenamer.Rename] = [],
                archiveClasses: [String: String] = [:]) {
        self.target = target
        self.allowList = allowList
        self.payloadOptions = payloadOptions
        self.select = select
        self.jsonOptions = jsonOptions
        self.readOptions = readOptions
        self.classRenames = classRenames
        self.archiveClasses = archiveClasses
    }
}
