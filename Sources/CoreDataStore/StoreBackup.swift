import Foundation
import GRDB

/// Copies a store with SQLite's online backup API before a migration writes to it.
///
/// The backup API copies pages under SQLite's own locking, so the copy is a consistent snapshot
/// even of a WAL store whose latest pages are still in its `-wal` file, which a plain file copy
/// would miss. The copy is written under a temporary name and renamed when complete, so a
/// backup path that exists is always a whole backup.
public enum StoreBackup {
    /// `<store>.archivist-backup-<yyyyMMdd-HHmmss>.sqlite` beside the store.
    public static func defaultPath(forStore path: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "\(path).archivist-backup-\(formatter.string(from: date)).sqlite"
    }

    /// Copies the open store `source` to a new file at `destination`.
    ///
    /// - Throws: `StoreError.backupFailed` when `destination` exists or the copy fails; the
    ///   caller must then not write to the store.
    static func copy(_ source: DatabaseQueue, storePath: String, to destination: String) throws(StoreError) {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw StoreError(.backupFailed, "the backup path \(destination) exists; choose another with --backup", path: storePath)
        }
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        do {
            let target = try DatabaseQueue(path: partial)
            try source.backup(to: target)
            try target.close()
            try FileManager.default.moveItem(atPath: partial, toPath: destination)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
            throw StoreError(.backupFailed, "cannot back up to \(destination): \(StoreConnection.describe(error))", path: storePath)
        }
    }

    /// Makes a backup of the store at `path` (opened read-only for the copy).
    public static func backup(store path: String, to destination: String) throws(StoreError) {
        let source = try StoreConnection.open(path, writable: false)
        defer { try? source.close() }
        try copy(source, storePath: path, to: destination)
    }
}
