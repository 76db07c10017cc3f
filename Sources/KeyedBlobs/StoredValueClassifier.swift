import Foundation
import KeyedArchive
import PropertyList
import TypedStream

/// Tells what a stored value is, reading only its bytes.
///
/// Property lists and archives are identified by parsing them, never by a prefix alone, so a
/// damaged archive is reported as `unreadable` rather than as the archive it claims to be.
public struct StoredValueClassifier: Sendable {
    public var readOptions: KeyedArchiveReadOptions
    /// How much of a keyed archive to read.
    public var archiveDetail: ArchiveDetail

    /// How much of a keyed archive the caller needs.
    public enum ArchiveDetail: Sendable {
        /// Its kind only (`--status` counts what is left to convert).
        case kind
        /// The class of each object, in `StoredValue.classIndex` for binary archives (a scan:
        /// kinds, classes, the allow-list's verdict), several times faster than decoding the
        /// objects. Archives the class index does not take are decoded as with `.objects`.
        case classes
        /// The decoded objects, in `StoredValue.archive` (a conversion, a sweep's records).
        case objects
    }

    /// Where values already classified are remembered by their bytes (scans of whole columns);
    /// nil classifies every value afresh.
    public var memo: RepeatedValueMemo<StoredValue>?

    public init(readOptions: KeyedArchiveReadOptions = .default, archiveDetail: ArchiveDetail = .objects,
                memo: RepeatedValueMemo<StoredValue>? = nil) {
        self.readOptions = readOptions
        self.archiveDetail = archiveDetail
        self.memo = memo
    }

    var decodesArchives: Bool { archiveDetail != .kind }

    /// Classifies bytes stored as a BLOB (or TEXT, with `isText`).
    public func classify(_ bytes: Data, isText: Bool = false) -> StoredValue {
        guard let memo else { return classifyFresh(bytes, isText: isText) }
        return memo.result(for: bytes, isText: isText) { classifyFresh(bytes, isText: isText) }
    }

    func classifyFresh(_ bytes: Data, isText: Bool) -> StoredValue {
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
        if !isText, TypedStream.isTypedStream(bytes) {
            guard decodesArchives else { return StoredValue(kind: .typedStream, payload: bytes) }
            do {
                let archive = try KeyedArchive(data: bytes, options: readOptions)
                return StoredValue(kind: .typedStream, archive: archive, payload: bytes)
            } catch {
                return StoredValue(kind: .unreadable, detail: "NSArchiver typedstream that does not read: \(error.description)", payload: bytes)
            }
        }
        if let format = Self.propertyListFormat(of: bytes) {
            // Most binary values are archives: decoded straight from the bytes, flat, which is
            // several times faster than building the property-list tree first. Anything else
            // (a plain plist, damage) is read the ordinary way below, which says what it is.
            if format == .binary, archiveDetail == .classes, let index = KeyedArchiveClassIndex(data: bytes, options: readOptions) {
                return StoredValue(kind: .keyedArchiveBinary, format: format, payload: bytes, classIndex: index, readOptions: readOptions)
            }
            if format == .binary, decodesArchives, let archive = try? KeyedArchive(data: bytes, options: readOptions) {
                return StoredValue(kind: .keyedArchiveBinary, archive: archive, format: format, payload: bytes)
            }
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

    package static let bplist = Array("bplist".utf8)
}
