import Foundation
import GRDB

/// Copies a store with SQLite's online backup API before a migration writes to it.
///
/// The backup API copies pages under SQLite's own locking, so the copy is a consistent snapshot
/// even of a WAL store whose latest pages are still in its `-wal` file, which a plain file copy
/// would miss. The copy is written under a reserved temporary name (`<backup>.partial`, created
/// exclusively) and linked to its final name only when complete, so a backup path that exists
/// is always a whole backup, and two runs never write the same file.
public enum StoreBackup {
    /// `<store>.archivist-backup-<yyyyMMdd-HHmmss>.sqlite` beside the store. A run that finds
    /// that name taken (a second run in the same second) adds `-2`, `-3`… before `.sqlite`.
    public static func defaultPath(forStore path: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "\(path).archivist-backup-\(formatter.string(from: date)).sqlite"
    }

    /// The `n`th candidate for a default backup name: `…-HHmmss.sqlite`, then `…-HHmmss-2.sqlite`.
    static func candidate(_ base: String, _ n: Int) -> String {
        guard n > 1 else { return base }
        return String(base.dropLast(".sqlite".count)) + "-\(n).sqlite"
    }

    /// Where a backup goes, before it is made.
    enum Destination {
        /// The default name beside the store, numbered if taken.
        case beside(store: String)
        /// The caller's path; it must not exist.
        case exactly(String)
    }

    /// Copies the open store `source` (read through the connection that will then write it) to
    /// a new file, and returns its path.
    ///
    /// - Throws: `StoreError.backupFailed` when the destination exists or the copy fails; the
    ///   caller must then not write to the store.
    static func copy(_ source: Database, storePath: String, to destination: Destination) throws(StoreError) -> String {
        let (partial, first, base) = try reserve(destination, storePath: storePath)
        do {
            let target = try DatabaseQueue(path: partial)
            try target.writeWithoutTransaction { db in try source.backup(to: db) }
            try target.close()
        } catch {
            discard(partial)
            throw StoreError(.backupFailed, "cannot back up to \(first): \(StoreConnection.describe(error))", path: storePath)
        }
        return try publish(partial, first: first, numberedFrom: base, storePath: storePath)
    }

    /// Copies the open store `source` to a new file at `destination`.
    static func copy(_ source: DatabaseQueue, storePath: String, to destination: String) throws(StoreError) {
        do {
            try source.read { db in
                _ = try copy(db, storePath: storePath, to: .exactly(destination))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.backupFailed, "cannot back up to \(destination): \(StoreConnection.describe(error))", path: storePath)
        }
    }

    /// Makes a backup of the store at `path`, read as `StoreConnection.openForReading` reads
    /// it: the store and its journals are left exactly as they were.
    public static func backup(store path: String, to destination: String) throws(StoreError) {
        let source = try StoreConnection.openForReading(path)
        defer { source.close() }
        try copy(source.queue, storePath: path, to: destination)
    }

    /// Whether `destination` can be written: a path that does not exist yet, in a folder that
    /// does and is writable. Checked before a migration touches anything.
    static func check(_ destination: Destination, storePath: String) throws(StoreError) {
        let path: String
        switch destination {
        case .exactly(let given):
            guard !FileManager.default.fileExists(atPath: given) else {
                throw StoreError(.backupFailed, "the backup path \(given) exists; choose another with --backup", path: storePath)
            }
            path = given
        case .beside(let store):
            path = store
        }
        let folder = (path as NSString).deletingLastPathComponent
        let checked = folder.isEmpty ? "." : folder
        guard access(checked, W_OK) == 0 else {
            let reason = String(cString: strerror(errno))
            throw StoreError(.backupFailed, "cannot write a backup in \(checked): \(reason); choose a writable folder with --backup", path: storePath)
        }
    }

    /// Creates the `.partial` file of the first free name, exclusively, so no other run can
    /// take it meanwhile.
    private static func reserve(_ destination: Destination, storePath: String) throws(StoreError) -> (partial: String, name: String, base: String?) {
        switch destination {
        case .exactly(let path):
            guard !FileManager.default.fileExists(atPath: path) else {
                throw StoreError(.backupFailed, "the backup path \(path) exists; choose another with --backup", path: storePath)
            }
            guard createExclusively(path + ".partial") else {
                throw StoreError(.backupFailed, "cannot back up to \(path): \(String(cString: strerror(errno)))", path: storePath)
            }
            return (path + ".partial", path, nil)
        case .beside(let store):
            let base = defaultPath(forStore: store)
            for n in 1...10_000 {
                let name = candidate(base, n)
                if FileManager.default.fileExists(atPath: name) { continue }
                if createExclusively(name + ".partial") { return (name + ".partial", name, base) }
                guard errno == EEXIST else {
                    throw StoreError(.backupFailed, "cannot back up to \(name): \(String(cString: strerror(errno)))", path: storePath)
                }
            }
            throw StoreError(.backupFailed, "no free backup name beside \(base)", path: storePath)
        }
    }

    private static func createExclusively(_ path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// Gives the finished copy its name without ever replacing a file: link(2) fails when the
    /// name exists, and a default name (numbered from `base`) then moves on to the next number.
    private static func publish(_ partial: String, first: String, numberedFrom base: String?, storePath: String) throws(StoreError) -> String {
        var name = first
        var n = 1
        if let base {
            while candidate(base, n) != first, n < 10_000 { n += 1 }
        }
        while true {
            if link(partial, name) == 0 {
                discard(partial)
                return name
            }
            let code = errno
            guard code == EEXIST, let base, n < 10_000 else {
                discard(partial)
                let reason = code == EEXIST ? "the path exists" : String(cString: strerror(code))
                throw StoreError(.backupFailed, "cannot back up to \(name): \(reason)", path: storePath)
            }
            n += 1
            name = candidate(base, n)
        }
    }

    static func discard(_ partial: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(partial + suffix) }
    }
}
