import Foundation
import PropertyList
import TypedStream
import NIBArchive
import Bookmark

/// What the bytes of an NSData hold, when they are a format Archivist recognizes.
///
/// Archives often carry other documents as data: a plist or a whole keyed archive (Core Data
/// Transformable attributes inside archives), JSON (a Codable struct boxed in an NSObject), or
/// an image. Naming them turns an opaque `{length = 4096, bytes = …}` into something a person
/// can act on. Identification reads only the bytes' content, never a file name.
public enum NestedPayload: Sendable, Hashable, CustomStringConvertible {
    /// A binary or XML property list that is not a keyed archive.
    case propertyList(PropertyListFormat)
    /// A property list whose top level has `$archiver` and `$objects`.
    case keyedArchive(PropertyListFormat)
    /// An NSArchiver typedstream (`04 0B typedstream|streamtyped`): an NSColor or NSFont from
    /// preferences bound through `NSUnarchiveFromData`, a legacy Core Data value.
    case typedStream
    /// A compiled nib (`NIBArchive`): nibs keep nested nibs in data (a table view's cell views,
    /// under `NSNibFileData`).
    case nibArchive
    /// URL bookmark data (`book`): what recent-items lists, login items, Safari's downloads and
    /// sandboxed apps keep to find a file again.
    case bookmark
    /// A classic alias record (the Alias Manager's, before bookmarks): Dock and Finder
    /// preferences' `_CFURLAliasData`. Identified only when its length field is the data's
    /// length and its tagged fields end exactly there.
    case aliasRecord
    /// A JSON object or array (RFC 8259).
    case json
    /// A PNG image, with its size from the IHDR chunk (0×0 when the chunk is cut off).
    case png(width: Int, height: Int)
    case jpeg
    case gif
    /// HEIC or HEIF: an ISO base media file whose `ftyp` brand is heic, heix, mif1 or msf1.
    case heic
    case pdf
    case gzip
    /// A zlib stream (RFC 1950), as `NSData.compressed(using: .zlib)` does not write but many
    /// apps do by hand.
    case zlib

    /// A short label: `PNG image 64×64`, `keyed archive (binary property list)`. A format the
    /// signature sniffer also knows is named as `ContentKind` names it.
    public var description: String {
        if let sniffed = contentKind { return sniffed.description }
        return switch self {
        case .propertyList(let format): format.description
        case .keyedArchive(let format): "keyed archive (\(format.description))"
        case .aliasRecord: "alias record"
        default: "JSON" // .json, the last case without a signature
        }
    }

    /// A stable identifier for machines: `binaryPlist`, `keyedArchive`, `json`, `png`, …; as
    /// `ContentKind.kind` for a format the signature sniffer also knows.
    public var kind: String {
        if let sniffed = contentKind { return sniffed.kind }
        return switch self {
        case .propertyList: "propertyList"
        case .keyedArchive: "keyedArchive"
        case .aliasRecord: "aliasRecord"
        default: "json" // .json
        }
    }

    /// The same format as the signature sniffer names it, for those it knows (every case but
    /// property lists, keyed archives, alias records and JSON, which have no signature of their own).
    var contentKind: ContentKind? {
        switch self {
        case .propertyList, .keyedArchive, .aliasRecord, .json: nil
        case .typedStream: .typedStream
        case .nibArchive: .nibArchive
        case .bookmark: .bookmark
        case .png(let width, let height): .png(width: width, height: height)
        case .jpeg: .jpeg
        case .gif: .gif
        case .heic: .heic
        case .pdf: .pdf
        case .gzip: .gzip
        case .zlib: .zlib
        }
    }

    /// Whether `expand` can decode this payload into values.
    public var isExpandable: Bool {
        switch self {
        case .propertyList, .keyedArchive, .typedStream, .nibArchive, .bookmark, .aliasRecord, .json: true
        default: false
        }
    }

    /// Names what `data` holds, or nil for bytes of no recognized format.
    ///
    /// Plists and JSON are identified only when they parse (with `options`' limits), so text
    /// that merely starts with `{` or `<?xml` is not mistaken for one.
    public static func identify(_ data: Data, options: PropertyListReadOptions = .default) -> NestedPayload? {
        inspect(data, options: options).payload
    }

    /// The decoded value of a nested plist, keyed archive or JSON document.
    public enum Content: Sendable, Hashable {
        case propertyList(PropertyListValue, format: PropertyListFormat)
        case keyedArchive(KeyedArchive, format: PropertyListFormat)
        /// A typedstream, read as the keyed archive of the same objects (`KeyedArchive.isTypedStream`).
        case typedStream(KeyedArchive)
        /// A compiled nib, read as the keyed archive of the same objects (`KeyedArchive.isNIBArchive`).
        case nibArchive(KeyedArchive)
        case bookmark(Bookmark)
        case aliasRecord(AliasRecord)
        case json(PropertyListValue)
    }

    /// Decodes a nested plist, keyed archive or JSON document; nil for anything else.
    ///
    /// A plist that looks like a keyed archive but does not decode as one comes back as
    /// `.propertyList`, so a damaged inner archive can still be read as a plain plist.
    /// Callers that expand recursively (archives inside archives) bound their own nesting: see
    /// `NestedPayloadOptions.maximumNesting`.
    public static func expand(_ data: Data, options: KeyedArchiveReadOptions = .default) -> Content? {
        inspect(data, options: options.propertyList, archiveOptions: options, decodesArchive: true).content
    }

    /// Identifies and, for plists and JSON, parses once: `identify` and `expand` share it.
    static func inspect(_ data: Data, options: PropertyListReadOptions, archiveOptions: KeyedArchiveReadOptions? = nil,
                        decodesArchive: Bool = false) -> (payload: NestedPayload?, content: Content?) {
        guard mayHoldPayload(data) else { return (nil, nil) }
        if TypedStream.isTypedStream(data) {
            guard decodesArchive else { return (.typedStream, nil) }
            var archiveOptions = archiveOptions ?? KeyedArchiveReadOptions()
            archiveOptions.propertyList = options
            // A damaged stream is still named; its content is left unread.
            return (.typedStream, (try? KeyedArchive(data: data, options: archiveOptions)).map { .typedStream($0) })
        }
        if NIBArchive.isNIBArchive(data) {
            guard decodesArchive else { return (.nibArchive, nil) }
            var archiveOptions = archiveOptions ?? KeyedArchiveReadOptions()
            archiveOptions.propertyList = options
            return (.nibArchive, (try? KeyedArchive(data: data, options: archiveOptions)).map { .nibArchive($0) })
        }
        if Bookmark.isBookmark(data) {
            // Damaged bookmark data is still named; its content is left unread.
            let bookmark = try? Bookmark(data: data, options: archiveOptions?.bookmark ?? .default)
            return (.bookmark, bookmark.map { .bookmark($0) })
        }
        if data.first == 0, AliasRecord.isAliasRecord(data) {
            return (.aliasRecord, (try? AliasRecord(data: data)).map { .aliasRecord($0) })
        }
        if let binary = magic(data) { return (binary, nil) }
        let reader = PropertyListReader(options: options)
        // `bplist`, or `<?xml`, `<!DOCTYPE` or `<plist` in any of the encodings XML allows.
        let detected = data.starts(with: Self.bplist) ? .binary : PropertyListFormat.detect(data)
        if let format = detected, format == .binary || format == .xml {
            guard let value = try? reader.read(data, as: format) else { return (nil, nil) }
            guard KeyedArchive.isKeyedArchive(value) else { return (.propertyList(format), .propertyList(value, format: format)) }
            guard decodesArchive else { return (.keyedArchive(format), nil) }
            var archiveOptions = archiveOptions ?? KeyedArchiveReadOptions()
            archiveOptions.propertyList = options
            if let archive = try? KeyedArchive(plist: value, options: archiveOptions) {
                return (.keyedArchive(format), .keyedArchive(archive, format: format))
            }
            return (.keyedArchive(format), .propertyList(value, format: format))
        }
        if startsLikeJSON(data), let value = try? JSONPropertyListReader(options: options).read(data) {
            return (.json, .json(value))
        }
        return (nil, nil)
    }

    static let bplist = Array("bplist".utf8)

    /// Whether `data` starts as some payload could: the first byte of each signature `magic`
    /// knows (PNG 0x89, JPEG 0xFF, GIF `G`, PDF `%`, gzip 0x1F, zlib 0x78, typedstream 0x04,
    /// NIBArchive `N`, bookmark `b` or `a`, alias record 0x00), of a plist (`b`,
    /// `<`, a byte-order mark's 0xEF, 0xFE, 0xFF or 0x00, whitespace) or of JSON (`{`, `[`), or
    /// HEIC's `ftyp` at byte 4. Most data (digests, tokens, small blobs) fails this at its
    /// first byte, and is then identified as nothing without the checks below.
    /// A signature added to `magic` must be added here.
    static func mayHoldPayload(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let first = raw.first else { return false }
            switch first {
            case 0x89, 0xFF, 0x47, 0x25, 0x1F, 0x78, 0x62, 0x3C, 0xEF, 0xFE, 0x00, 0x20, 0x09, 0x0A, 0x0D, 0x7B, 0x5B, 0x04, 0x4E, 0x61:
                return true
            default:
                return raw.count >= 8 && raw[4] == 0x66 && raw[5] == 0x74 && raw[6] == 0x79 && raw[7] == 0x70
            }
        }
    }

    /// Formats known by their first bytes alone, named by the one sniffer every verb uses.
    static func magic(_ data: Data) -> NestedPayload? {
        switch ContentKind.sniff(data) {
        case .png(let width, let height)?: .png(width: width, height: height)
        case .jpeg?: .jpeg
        case .gif?: .gif
        case .heic?: .heic
        case .pdf?: .pdf
        case .gzip?: .gzip
        case .zlib?: .zlib
        default: nil
        }
    }

    /// `{` or `[` after optional whitespace: the only roots this identifies as JSON.
    static func startsLikeJSON(_ data: Data) -> Bool {
        guard let first = firstSignificantByte(data) else { return false }
        return data[first] == UInt8(ascii: "{") || data[first] == UInt8(ascii: "[")
    }

    static func firstSignificantByte(_ data: Data) -> Data.Index? {
        var i = data.startIndex
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { i += 3 }
        while i < data.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(data[i]) { i += 1 }
        return i < data.endIndex ? i : nil
    }
}
