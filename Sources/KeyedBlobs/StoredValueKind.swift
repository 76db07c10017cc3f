/// What one stored value is, as a scan or a migration sees it.
public enum StoredValueKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// An NSKeyedArchiver archive in a binary property list: what Transformable attributes hold.
    case keyedArchiveBinary
    /// An NSKeyedArchiver archive in an XML property list.
    case keyedArchiveXML
    /// An NSArchiver typedstream: what attributes naming `NSUnarchiveFromData` hold, and older
    /// apps' values. No secure unarchiver reads one.
    case typedStream
    /// A property list that is not an archive (a `PropertyListEncoder` payload).
    case propertyList
    /// A JSON object or array (a `JSONEncoder` payload).
    case json
    /// A PNG, JPEG, GIF or HEIC image.
    case image
    /// Core Data's reference to a file in `_EXTERNAL_DATA` (see `ExternalBinaryStorage`).
    case externalReference
    /// Bytes that start like a property list or archive but do not read as one: damage.
    case unreadable
    /// Bytes of no format Archivist recognizes (or a PDF, gzip or zlib stream).
    case other
    /// A string that is not a document (in TEXT columns).
    case text
    /// An integer or real.
    case number
    /// SQL NULL.
    case null

    /// How reports name the kind.
    public var label: String {
        switch self {
        case .keyedArchiveBinary: "keyed archive (binary)"
        case .keyedArchiveXML: "keyed archive (XML)"
        case .typedStream: "NSArchiver typedstream"
        case .propertyList: "plain property list"
        case .json: "JSON"
        case .image: "image"
        case .externalReference: "external reference"
        case .unreadable: "unreadable"
        case .other: "other"
        case .text: "text"
        case .number: "number"
        case .null: "NULL"
        }
    }

    public var isKeyedArchive: Bool { self == .keyedArchiveBinary || self == .keyedArchiveXML }
    /// An archive of objects, by either archiver: what a migration converts.
    public var isArchive: Bool { isKeyedArchive || self == .typedStream }

    public static func < (a: Self, b: Self) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}
