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
        a.ordinal < b.ordinal
    }

    /// The place of the kind in `allCases`.
    var ordinal: Int {
        switch self {
        case .keyedArchiveBinary: 0
        case .keyedArchiveXML: 1
        case .typedStream: 2
        case .propertyList: 3
        case .json: 4
        case .image: 5
        case .externalReference: 6
        case .unreadable: 7
        case .other: 8
        case .text: 9
        case .number: 10
        case .null: 11
        }
    }

    /// By the case, not its raw string: every value a scan counts is hashed once.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ordinal)
    }
}
