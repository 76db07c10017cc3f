import ArchivePayload
import KeyedArchive
import PropertyList

/// The format a migration rewrites values in.
public enum ConversionTarget: String, Sendable, Hashable, CaseIterable {
    /// JSON that `JSONDecoder` decodes into the Codable type replacing the archived class.
    case json
    /// A binary property list, as `PropertyListEncoder` writes by default.
    case propertyList = "plist"
    /// An XML property list.
    case xml
    /// A keyed archive: classes renamed in archives (`classRenames`), and JSON or
    /// property-list payloads archived back (`archiveClasses`), the way back from a migration.
    case archive

    /// The payload conventions the target's decoder expects.
    var payloadTarget: PayloadOptions.Target { self == .json ? .json : .propertyList }

    /// Whether the new values are text (JSON, XML) rather than binary.
    public var isText: Bool { self == .json || self == .xml }

    /// How reports name it: `JSON`, `binary property list`, `XML property list`.
    public var label: String {
        switch self {
        case .json: "JSON"
        case .propertyList: "binary property list"
        case .xml: "XML property list"
        case .archive: "keyed archive"
        }
    }
}

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
