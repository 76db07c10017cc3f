import Foundation

/// Core Data's framing of the values of attributes that allow external binary storage.
///
/// When an attribute has "Allows External Storage", Core Data prefixes every non-NULL value it
/// writes with one byte:
/// - `0x01`: the value follows inline, in the rest of the BLOB;
/// - `0x02`: the value is in a file, and the rest of the BLOB is that file's name, a UUID in
///   ASCII (sometimes followed by a NUL), under `.<store name>_SUPPORT/_EXTERNAL_DATA/` beside
///   the store.
///
/// A scanner that reads such a BLOB as it stands would call `0x01` + PNG bytes "other" and the
/// 37-byte reference "a short string": this type reads the framing, so reports say what is
/// really there and a migration never rewrites a reference as if it were the value.
public enum ExternalBinaryStorage {
    /// The header byte of an inline value.
    public static let inlineMarker: UInt8 = 0x01
    /// The header byte of a reference to a file in `_EXTERNAL_DATA`.
    public static let externalMarker: UInt8 = 0x02

    /// A value Core Data keeps in a file outside the database.
    public struct Reference: Sendable, Hashable, CustomStringConvertible {
        /// The file's name: an uppercase UUID string as Core Data writes it.
        public var fileName: String

        public init(fileName: String) { self.fileName = fileName }

        /// `.<store>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside the store file.
        public func fileURL(store: URL) -> URL {
            ExternalBinaryStorage.directory(store: store).appendingPathComponent(fileName)
        }

        public var description: String { "_EXTERNAL_DATA/\(fileName)" }
    }

    /// The folder Core Data keeps external values of the store at `store` in.
    public static func directory(store: URL) -> URL {
        let name = store.deletingPathExtension().lastPathComponent
        return store.deletingLastPathComponent()
            .appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// The reference a BLOB holds, when it is `0x02` followed by a UUID in ASCII (and optional
    /// NULs); nil for anything else, so that data that merely starts with 0x02 is not mistaken
    /// for a reference.
    public static func reference(in blob: Data) -> Reference? {
        guard blob.count >= 37, blob.count <= 64, blob.first == externalMarker else { return nil }
        var name = blob.dropFirst()
        while name.last == 0 { name = name.dropLast() }
        guard name.count == 36, name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let text = String(decoding: name, as: UTF8.self)
        guard UUID(uuidString: text) != nil else { return nil }
        return Reference(fileName: text)
    }

    /// The value inside an inline-framed BLOB (`0x01` + value), or nil when the first byte is
    /// not `0x01`. Whether the framing is real is for the caller to judge from what follows.
    public static func inlineValue(in blob: Data) -> Data? {
        guard blob.count > 1, blob.first == inlineMarker else { return nil }
        return blob.dropFirst()
    }

    /// `0x01` + `value`: how a value of an attribute with external storage is written inline.
    public static func framedInline(_ value: Data) -> Data {
        var out = Data(capacity: value.count + 1)
        out.append(inlineMarker)
        out.append(value)
        return out
    }

    /// `0x02` + the file name: how Core Data refers to an external file.
    public static func framedReference(_ reference: Reference) -> Data {
        var out = Data([externalMarker])
        out.append(contentsOf: Array(reference.fileName.utf8))
        return out
    }
}
