import Foundation

/// Every file and folder under a root, with its bytes (files) and modification time, to show
/// that a sweep changed nothing it read: no byte, no time, no file added or removed.
struct TreeSnapshot: Equatable {
    struct Entry: Equatable {
        var bytes: Data?
        var modified: Date?
    }

    var entries: [String: Entry] = [:]

    /// Walks `root` without following links. Files larger than `largestRead` are compared by
    /// size and time only (a sparse file of 100 GB is not read).
    init(_ root: String, largestRead: Int = 64 << 20) throws {
        let fm = FileManager.default
        func record(_ relative: String) throws {
            let path = relative.isEmpty ? root : root + "/" + relative
            let attributes = try fm.attributesOfItem(atPath: path)
            let modified = attributes[.modificationDate] as? Date
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory:
                entries[relative + "/"] = Entry(bytes: nil, modified: modified)
                for name in try fm.contentsOfDirectory(atPath: path) {
                    try record(relative.isEmpty ? name : relative + "/" + name)
                }
            case .typeRegular:
                let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                let bytes = size <= largestRead ? try Data(contentsOf: URL(fileURLWithPath: path)) : Data("\(size) bytes".utf8)
                entries[relative] = Entry(bytes: bytes, modified: modified)
            default:
                entries[relative] = Entry(bytes: nil, modified: modified)
            }
        }
        try record("")
    }

    /// What changed from this snapshot to `other`, taken later: one line each, empty when
    /// nothing did.
    func changes(to other: TreeSnapshot) -> [String] {
        var lines: [String] = []
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            guard let after = other.entries[path] else { lines.append("\(path): removed"); continue }
            if after.bytes != entry.bytes { lines.append("\(path): bytes changed") }
            if after.modified != entry.modified { lines.append("\(path): modification time changed") }
        }
        for path in other.entries.keys.sorted() where entries[path] == nil { lines.append("\(path): added") }
        return lines
    }
}
