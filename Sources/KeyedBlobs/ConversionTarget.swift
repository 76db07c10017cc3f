import ArchivePayload

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
