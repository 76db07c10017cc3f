import Foundation
import KeyedArchive
import PropertyList

/// What one stored value is, as a scan or a migration sees it.
public enum StoredValueKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// An NSKeyedArchiver archive in a binary property list: what Transformable attributes hold.
    case keyedArchiveBinary
    /// An NSKeyedArchiver archive in an XML property list.
    case keyedArchiveXML
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

    public static func < (a: Self, b: Self) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}

/// One value, classified: its kind, the framing Core Data put around it, and what was decoded
/// on the way (so callers need not parse twice).
public struct StoredValue: Sendable {
    /// Core Data's external-storage framing (`ExternalBinaryStorage`).
    public enum Framing: String, Sendable, Hashable {
        /// The value is stored as is.
        case none
        /// `0x01` + the value.
        case inline
        /// `0x02` + a file name.
        case external
    }

    public var kind: StoredValueKind
    public var framing: Framing
    /// A precise label: `PNG image 8×8`, `binary property list`, the reason a value is unreadable.
    public var detail: String?
    /// The decoded archive, for keyed archives.
    public var archive: KeyedArchive?
    /// The format of a property list or archive.
    public var format: PropertyListFormat?
    /// The external file a reference names.
    public var reference: ExternalBinaryStorage.Reference?
    /// The bytes of the value inside any framing; nil for NULL, numbers and references.
    public var payload: Data?

    public init(kind: StoredValueKind, framing: Framing = .none, detail: String? = nil, archive: KeyedArchive? = nil,
                format: PropertyListFormat? = nil, reference: ExternalBinaryStorage.Reference? = nil, payload: Data? = nil) {
        self.kind = kind
        self.framing = framing
        self.detail = detail
        self.archive = archive
        self.format = format
        self.reference = reference
        self.payload = payload
    }
}

/// Tells what a stored value is, reading only its bytes.
///
/// Property lists and archives are identified by parsing them, never by a prefix alone, so a
/// damaged archive is reported as `unreadable` rather than as the archive it claims to be.
public struct StoredValueClassifier: Sendable {
    public var readOptions: KeyedArchiveReadOptions
    /// Decode keyed archives into `StoredValue.archive` (scan and migrate need it; a quick
    /// survey could skip it).
    public var decodesArchives: Bool

    public init(readOptions: KeyedArchiveReadOptions = .default, decodesArchives: Bool = true) {
        self.readOptions = readOptions
        self.decodesArchives = decodesArchives
    }

    /// Classifies bytes stored as a BLOB (or TEXT, with `isText`).
    public func classify(_ bytes: Data, isText: Bool = false) -> StoredValue {
        if let reference = ExternalBinaryStorage.reference(in: bytes) {
            return StoredValue(kind: .externalReference, framing: .external, detail: reference.description, reference: reference)
        }
        if !isText, let inner = ExternalBinaryStorage.inlineValue(in: bytes) {
            // 0x01 is Core Data's inline header only if what follows is a value we recognize.
            var framed = classifyUnframed(inner, isText: false)
            if framed.kind != .other {
                framed.framing = .inline
                return framed
            }
        }
        return classifyUnframed(bytes, isText: isText)
    }

    /// Classifies a value without looking for Core Data's framing.
    public func classifyUnframed(_ bytes: Data, isText: Bool) -> StoredValue {
        if let format = Self.propertyListFormat(of: bytes) {
            let value: PropertyListValue
            do {
                value = try PropertyListReader(options: readOptions.propertyList).read(bytes, as: format)
            } catch {
                return StoredValue(kind: .unreadable, detail: "\(format) that does not read: \(error.description)", format: format, payload: bytes)
            }
            guard KeyedArchive.isKeyedArchive(value) else {
                return StoredValue(kind: .propertyList, detail: format.description, format: format, payload: bytes)
            }
            let kind: StoredValueKind = format == .binary ? .keyedArchiveBinary : .keyedArchiveXML
            guard decodesArchives else { return StoredValue(kind: kind, format: format, payload: bytes) }
            do {
                let archive = try KeyedArchive(plist: value, options: readOptions)
                return StoredValue(kind: kind, archive: archive, format: format, payload: bytes)
            } catch {
                return StoredValue(kind: .unreadable, detail: "keyed archive that does not decode: \(error.description)", format: format, payload: bytes)
            }
        }
        if let payload = NestedPayload.identify(bytes, options: readOptions.propertyList) {
            switch payload {
            case .json: return StoredValue(kind: .json, detail: "JSON", format: .json, payload: bytes)
            case .png, .jpeg, .gif, .heic: return StoredValue(kind: .image, detail: payload.description, payload: bytes)
            case .propertyList(let format): return StoredValue(kind: .propertyList, detail: format.description, format: format, payload: bytes)
            case .keyedArchive(let format):
                return StoredValue(kind: format == .binary ? .keyedArchiveBinary : .keyedArchiveXML, format: format, payload: bytes)
            default: return StoredValue(kind: .other, detail: payload.description, payload: bytes)
            }
        }
        return StoredValue(kind: isText ? .text : .other, payload: bytes)
    }

    /// Binary when the bytes start with `bplist`; XML when they open with an XML declaration or
    /// doctype that leads to `<plist`, or with `<plist` itself. Other markup is not a plist.
    static func propertyListFormat(of bytes: Data) -> PropertyListFormat? {
        if bytes.starts(with: bplist) { return .binary }
        let head = bytes.prefix(512)
        guard PropertyListFormat.detect(head) == .xml else { return nil }
        // UTF-8 (with or without BOM) is what every writer uses; other encodings are left to
        // the generic reader through NestedPayload.
        let text = String(decoding: head, as: UTF8.self)
        return text.contains("<plist") || text.contains("<!DOCTYPE plist") ? .xml : nil
    }

    static let bplist = Array("bplist".utf8)
}
