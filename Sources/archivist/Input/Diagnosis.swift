import Foundation
import PropertyList

/// What to tell a user whose file is not what the verb wants, in one voice for every verb:
/// the content sniffer names the file (a JPEG, an SQLite database, a zip…) and, where another
/// verb reads it, says which.
enum Diagnosis {
    /// The message for bytes that did not read as a property list.
    static func propertyListFailure(_ error: PropertyListError, data: Data) -> String {
        if data.isEmpty { return "empty input: the file has no bytes" }
        if error.code != .truncated, let kind = foreignContent(data) {
            return "not a property list: \(describe(kind, size: data.count))"
        }
        return error.description
    }

    /// The kind of `data` when it is a known format that is no property list.
    static func foreignContent(_ data: Data) -> ContentKind? {
        switch ContentKind.sniff(data) {
        case nil, .binaryPropertyList?, .empty?: nil
        case let kind?: kind
        }
    }

    /// `JPEG image, 1,204 bytes`, with a pointer to the verb that reads it when there is one.
    static func describe(_ kind: ContentKind, size: Int) -> String {
        if kind == .empty { return "empty file" }
        var text = "\(kind), \(CountText.counted(size, "byte"))"
        switch kind {
        case .sqlite: text += "; for a Core Data store use `archivist scan` (or `archivist model` for its model)"
        case .nibArchive: text += "; `archivist inspect`, `check`, `diff` and `sweep` read it (as the keyed archive of its objects)"
        case .bookmark: text += "; `archivist inspect` reads it (its path, volume and other fields)"
        case .typedStream: text += "; `archivist inspect`, `unarchive` and `rewrite --to keyed` read it"
        default: break
        }
        return text
    }

    /// The message for a store that did not open: what the file is when it is no database.
    static func storeFailure(_ message: String, path: String) -> String {
        guard message.hasPrefix("not an SQLite database"), let (kind, size) = ContentKind.sniff(fileAt: path) else { return message }
        switch kind {
        case .binaryPropertyList?:
            return "not an SQLite database: a binary property list; read it with `archivist print` or `archivist inspect`"
        case nil:
            if let detected = readableFormat(path: path) {
                return "not an SQLite database: \(detected == .json ? "JSON" : "an \(detected)"); read it with `archivist print`"
            }
            return message
        case let kind?:
            return "not an SQLite database: \(describe(kind, size: size))"
        }
    }

    /// The property-list format a text file starts like, if any.
    private static func readableFormat(path: String) -> PropertyListFormat? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 26,
              let (_, format) = try? PropertyListReader().read(data) else { return nil }
        return format
    }
}
