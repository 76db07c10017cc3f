import Foundation
import KeyedArchive
import PropertyList

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
    /// The decoded archive, for keyed archives read with `StoredValueClassifier.ArchiveDetail.objects`.
    public var archive: KeyedArchive? {
        get { decoding?.archive }
        set { decoding = Decoding.make(archive: newValue, readOptions: readOptions) }
    }
    /// The class of every object, for binary keyed archives read with `.classes`: all a scan
    /// needs, without decoding the objects.
    public var classIndex: KeyedArchiveClassIndex?
    /// The options a value with a `classIndex` was read with: the archive is decoded with them
    /// when a refusal must be explained path by path.
    public var readOptions: KeyedArchiveReadOptions? {
        get { decoding?.readOptions }
        set { decoding = Decoding.make(archive: archive, readOptions: newValue) }
    }
    /// `archive` and `readOptions`, boxed: together about 260 bytes, which every copy of a value
    /// on its way from the classifier to a tally would move, and most values have neither.
    var decoding: Decoding?

    package final class Decoding: Sendable {
        let archive: KeyedArchive?
        let readOptions: KeyedArchiveReadOptions?

        package init(archive: KeyedArchive?, readOptions: KeyedArchiveReadOptions?) {
            self.archive = archive
            self.readOptions = readOptions
        }

        /// The box for the pair: none for neither, one shared box for the default options alone
        /// (what a scan's class index comes with), else a new one.
        static func make(archive: KeyedArchive?, readOptions: KeyedArchiveReadOptions?) -> Decoding? {
            guard archive != nil || readOptions != nil else { return nil }
            if archive == nil, readOptions == .default { return defaultOptions }
            return Decoding(archive: archive, readOptions: readOptions)
        }

        static let defaultOptions = Decoding(archive: nil, readOptions: .default)
    }
    /// The format of a property list or archive.
    public var format: PropertyListFormat?
    /// The external file a reference names.
    public var reference: ExternalBinaryStorage.Reference?
    /// The bytes of the value inside any framing; nil for NULL, numbers and references.
    public var payload: Data?

    /// A value with its archive and options boxed already (the classifier's way: no large
    /// optional is built, passed and destroyed for the values that have neither).
    package init(kind: StoredValueKind, framing: Framing = .none, detail: String? = nil, format: PropertyListFormat? = nil,
                 reference: ExternalBinaryStorage.Reference? = nil, payload: Data? = nil, classIndex: KeyedArchiveClassIndex? = nil,
                 decoding: Decoding?) {
        self.kind = kind
        self.framing = framing
        self.detail = detail
        self.decoding = decoding
        self.format = format
        self.reference = reference
        self.payload = payload
        self.classIndex = classIndex
    }

    public init(kind: StoredValueKind, framing: Framing = .none, detail: String? = nil, archive: KeyedArchive? = nil,
                format: PropertyListFormat? = nil, reference: ExternalBinaryStorage.Reference? = nil, payload: Data? = nil,
                classIndex: KeyedArchiveClassIndex? = nil, readOptions: KeyedArchiveReadOptions? = nil) {
        self.kind = kind
        self.framing = framing
        self.detail = detail
        self.decoding = Decoding.make(archive: archive, readOptions: readOptions)
        self.format = format
        self.reference = reference
        self.payload = payload
        self.classIndex = classIndex
    }
}
