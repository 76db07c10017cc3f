import Foundation
internal import SystemInterface

/// The sweep's private folder for database copies, removed when the sweep ends.
///
/// SQLite reads only files, so a database inside a zip or tar is copied here first, with its
/// `-wal` and `-journal` beside it when the container holds them. A database in a folder is not
/// copied here: `StoreConnection.openForReading` reads it where it lies without changing it.
final class TemporaryFolder: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var counter = 0

    init(parent: String) throws(SweepError) {
        let base = parent.isEmpty ? "/tmp" : parent
        switch TemporaryPaths.makeFolder(pathPrefix: (base.hasSuffix("/") ? base : base + "/") + "archivist-sweep-") {
        case .success(let made): path = made
        case .failure(let error): throw SweepError(path: base, message: "cannot make a temporary folder: \(error.systemText)")
        }
    }

    /// A new empty folder inside, for one database and its companions.
    func makeSlot() throws(SweepError) -> String {
        lock.lock()
        counter += 1
        let slot = path + "/\(counter)"
        lock.unlock()
        guard mkdir(slot, 0o700) == 0 else {
            throw SweepError(path: slot, message: "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        return slot
    }

    /// Removes a slot and everything in it.
    func remove(_ slot: String) {
        try? FileManager.default.removeItem(atPath: slot)
    }

    /// Removes the whole folder.
    func removeAll() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
