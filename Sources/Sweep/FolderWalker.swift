import Foundation

/// Walks a folder tree depth first, names sorted in each folder, without following symbolic
/// links: every regular file is handed to `file`, everything else that is not a folder
/// (links, devices, FIFOs, sockets) to `skipped`, and a folder that cannot be opened to
/// `failed`. The walk holds one folder's names at a time per level, so its memory follows the
/// tree's depth, not its size.
enum FolderWalker {
    static func walk(_ root: String, file: (_ path: String, _ display: String) -> Void, skipped: () -> Void,
                     failed: (_ display: String, _ message: String) -> Void, shouldContinue: () -> Bool = { true }) {
        // Each level is a folder's remaining entries, last first.
        var levels: [[(path: String, isFolder: Bool)]] = []
        func list(_ folder: String) -> [(path: String, isFolder: Bool)]? {
            guard let directory = opendir(folder) else {
                failed(folder, "cannot open folder: \(String(cString: strerror(errno)))")
                return nil
            }
            defer { closedir(directory) }
            var entries: [(name: String, type: UInt8)] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                entries.append((name, entry.pointee.d_type))
            }
            entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            var result: [(path: String, isFolder: Bool)] = []
            result.reserveCapacity(entries.count)
            for entry in entries {
                let path = prefix + entry.name
                var type = entry.type
                if type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    switch info.st_mode & S_IFMT {
                    case S_IFDIR: type = UInt8(DT_DIR)
                    case S_IFREG: type = UInt8(DT_REG)
                    default: type = UInt8(DT_LNK)
                    }
                }
                switch type {
                case UInt8(DT_DIR): result.append((path, true))
                case UInt8(DT_REG): result.append((path, false))
                default: skipped()
                }
            }
            return result.reversed()
        }
        guard let top = list(root) else { return }
        levels.append(top)
        while !levels.isEmpty, shouldContinue() {
            guard let entry = levels[levels.count - 1].popLast() else {
                levels.removeLast()
                continue
            }
            if entry.isFolder {
                if let entries = list(entry.path) { levels.append(entries) }
            } else {
                file(entry.path, entry.path)
            }
        }
    }
}
