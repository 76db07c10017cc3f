import Foundation
import KeyedArchive
import PropertyList
import TypedStream

/// Tells what a stored value is, reading only its bytes.
///
/// Property lists and archives are identified by parsing them, never by a prefix alone, so a
/// damaged archive is reported as `unreadable` rather than as the archive it claims to be.
public struct StoredValueClassifier: Sendable {
    public var readOptions: KeyedArchiveReadOptions {
        didSet { optionsBox = StoredValue.Decoding.make(archive: nil, readOptions: readOptions) }
    }
    /// `readOptions`, boxed once for the values read for their classes.
    var optionsBox: StoredValue.Decoding?
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
        optionsBox = StoredValue.Decoding.make(archive: nil, readOptions: readOptions)
    }

    var decodesArchives: Bool { archiveDetail != .kind }

    /// Classifies bytes stored as a BLOB (or TEXT, with `isText`).
    public func classify(_ bytes: Data, isText: Bool = false) -> StoredValue {
        classify(bytes, isText: isText, reader: nil)
    }

    /// `classify(_:isText:)`, reading small archives with `reader`, which keeps what repeats
    /// from one value to the next (one reader per thread).
    package func classify(_ bytes: Data, isText: Bool = false, reader: SmallArchiveReader?) -> StoredValue {
        if bytes.withUnsafeBytes(Self.isPlainByFirstBytes) { return StoredValue(kind: isText ? .text : .other, payload: bytes, decoding: nil) }
        guard let memo, Self.isWorthRemembering(bytes, isText: isText) else { return classifyFresh(bytes, isText: isText, reader: reader) }
        return memo.result(for: bytes, isText: isText) { classifyFresh(bytes, isText: isText, reader: reader) }
    }

    /// Whether the first bytes alone tell that the value is nothing Archivist reads (text, or
    /// other bytes): not Core Data's framing (1, 2), a typedstream (3, 4), a binary or XML plist
    /// (`b`, `<`, whitespace, a byte-order mark, a zero byte), nor any payload `NestedPayload`
    /// tells apart (`NestedPayload.mayHoldPayload`: images, PDF, compressed data, JSON, HEIC's
    /// `ftyp`). `classifyFresh` says `.text` or `.other` of such bytes after each of those
    /// checks; this is the same answer from one look at the bytes, for names, URLs and UUIDs.
    static func isPlainByFirstBytes(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard let first = raw.first else { return false }
        switch first {
        case 0x01, 0x02, 0x03, 0x04, 0x89, 0xFF, 0x47, 0x25, 0x1F, 0x78, 0x62, 0x3C, 0xEF, 0xFE, 0x00, 0x20, 0x09, 0x0A, 0x0D, 0x7B, 0x5B:
            return false
        default:
            return !(raw.count >= 8 && raw[4] == 0x66 && raw[5] == 0x74 && raw[6] == 0x79 && raw[7] == 0x70)
        }
    }

    /// Whether classifying the value may cost more than remembering it: what may be parsed (a
    /// binary or XML plist, an archive, a typedstream, JSON, framed or not) by its first byte,
    /// as `NestedPayload` tells them. Text, images, UUIDs and other bytes are told apart by
    /// their first bytes, faster than the memo finds them.
    static func isWorthRemembering(_ bytes: Data, isText: Bool) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard var first = raw.first else { return false }
            if first == ExternalBinaryStorage.inlineMarker, raw.count > 1, !isText { first = raw[1] }
            switch first {
            case UInt8(ascii: "b"), UInt8(ascii: "<"), UInt8(ascii: "{"), UInt8(ascii: "["),
                 0xEF, 0xFE, 0xFF, 0x00, 0x03, 0x04, 0x09, 0x0A, 0x0D, 0x20:
                return true
            default:
                return false
            }
        }
    }

    func classifyFresh(_ bytes: Data, isText: Bool, reader: SmallArchiveReader? = nil) -> StoredValue {
        if let reference = ExternalBinaryStorage.reference(in: bytes) {
            return StoredValue(kind: .externalReference, framing: .external, detail: reference.description, reference: reference, decoding: nil)
        }
        if !isText, let inner = ExternalBinaryStorage.inlineValue(in: bytes) {
            // 0x01 is Core Data's inline header only if what follows is a value we recognize.
            var framed = classifyUnframed(inner, isText: false, reader: reader)
            if framed.kind != .other {
                framed.framing = .inline
                return framed
            }
        }
        return classifyUnframed(bytes, isText: isText, reader: reader)
    }

    /// Classifies a value without looking for Core Data's framing.
    public func classifyUnframed(_ bytes: Data, isText: Bool) -> StoredValue {
        classifyUnframed(bytes, isText: isText, reader: nil)
    }

    /// `classifyUnframed(_:isText:)`, reading small archives with `reader`.
    package func classifyUnframed(_ bytes: Data, isText: Bool, reader: SmallArchiveReader?) -> StoredValue {
        if !isText, TypedStream.isTypedStream(bytes) {
            guard decodesArchives else { return StoredValue(kind: .typedStream, payload: bytes, decoding: nil) }
            do {
                let archive = try KeyedArchive(data: bytes, options: readOptions)
                return StoredValue(kind: .typedStream, payload: bytes, decoding: StoredValue.Decoding(archive: archive, readOptions: nil))
            } catch {
                return StoredValue(kind: .unreadable, detail: "NSArchiver typedstream that does not read: \(error.description)", payload: bytes, decoding: nil)
            }
        }
        if let format = Self.propertyListFormat(of: bytes) {
            // Most binary values are archives: decoded straight from the bytes, flat, which is
            // several times faster than building the property-list tree first. Anything else
            // (a plain plist, damage) is read the ordinary way below, which says what it is.
            if format == .binary, archiveDetail == .classes,
               let index = reader?.classIndex(bytes, options: readOptions) ?? KeyedArchiveClassIndex(data: bytes, options: readOptions) {
                return StoredValue(kind: .keyedArchiveBinary, format: format, payload: bytes, classIndex: index, decoding: optionsBox)
            }
            if format == .binary, decodesArchives,
               let archive = reader?.archive(bytes, options: readOptions) ?? (try? KeyedArchive(data: bytes, options: readOptions)) {
                return StoredValue(kind: .keyedArchiveBinary, format: format, payload: bytes, decoding: StoredValue.Decoding(archive: archive, readOptions: nil))
            }
            let value: PropertyListValue
            do {
                value = try PropertyListReader(options: readOptions.propertyList).read(bytes, as: format)
            } catch {
                return StoredValue(kind: .unreadable, detail: "\(format) that does not read: \(error.description)", format: format, payload: bytes, decoding: nil)
            }
            guard KeyedArchive.isKeyedArchive(value) else {
                return StoredValue(kind: .propertyList, detail: format.description, format: format, payload: bytes, decoding: nil)
            }
            let kind: StoredValueKind = format == .binary ? .keyedArchiveBinary : .keyedArchiveXML
            guard decodesArchives else { return StoredValue(kind: kind, format: format, payload: bytes, decoding: nil) }
            do {
                let archive = try KeyedArchive(plist: value, options: readOptions)
                return StoredValue(kind: kind, format: format, payload: bytes, decoding: StoredValue.Decoding(archive: archive, readOptions: nil))
            } catch {
                return StoredValue(kind: .unreadable, detail: "keyed archive that does not decode: \(error.description)", format: format, payload: bytes, decoding: nil)
            }
        }
        if let payload = NestedPayload.identify(bytes, options: readOptions.propertyList) {
            switch payload {
            case .json: return StoredValue(kind: .json, detail: "JSON", format: .json, payload: bytes, decoding: nil)
            case .png, .jpeg, .gif, .heic: return StoredValue(kind: .image, detail: payload.description, payload: bytes, decoding: nil)
            case .propertyList(let format): return StoredValue(kind: .propertyList, detail: format.description, format: format, payload: bytes, decoding: nil)
            case .keyedArchive(let format):
                return StoredValue(kind: format == .binary ? .keyedArchiveBinary : .keyedArchiveXML, format: format, payload: bytes, decoding: nil)
            default: return StoredValue(kind: .other, detail: payload.description, payload: bytes, decoding: nil)
            }
        }
        return StoredValue(kind: isText ? .text : .other, payload: bytes, decoding: nil)
    }

    /// Binary when the bytes start with `bplist`; XML when they open with an XML declaration or
    /// doctype that leads to `<plist`, or with `<plist` itself. Other markup is not a plist.
    static func propertyListFormat(of bytes: Data) -> PropertyListFormat? {
        let first = bytes.withUnsafeBytes { raw -> UInt8? in raw.first }
        guard let first else { return nil }
        if first == UInt8(ascii: "b"), bytes.withUnsafeBytes({ $0.starts(with: bplist) }) { return .binary }
        // XML opens with `<` after any whitespace, in UTF-8 or after a byte-order mark, or in
        // UTF-16 or UTF-32 (a zero byte first when big-endian, `<` first when little-endian).
        switch first {
        case UInt8(ascii: "<"), 0x00, 0xEF, 0xFE, 0xFF, 0x20, 0x09, 0x0A, 0x0D: break
        default: return nil
        }
        let head = bytes.prefix(512)
        guard PropertyListFormat.detect(head) == .xml else { return nil }
        // UTF-8 (with or without BOM) is what every writer uses; other encodings are left to
        // the generic reader through NestedPayload.
        let text = String(decoding: head, as: UTF8.self)
        return text.contains("<plist") || text.contains("<!DOCTYPE plist") ? .xml : nil
    }

    package static let bplist = Array("bplist".utf8)
}
