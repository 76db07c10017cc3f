import Foundation
import GRDB
import PropertyList
internal import SystemInterface

/// Opens store files through GRDB: for reading, without changing anything (`openForReading`);
/// for writing, only by `migrate` (`openForWriting`). Neither ever creates a store that is not
/// there (SQLite would happily make an empty database).
public enum StoreConnection {
    /// The first 16 bytes of every SQLite 3 database file.
    static let header = Array("SQLite format 3\u{0}".utf8)

    /// How long a writer waits for another process's lock by default, in seconds: a Core Data
    /// app that still has the store open holds its lock only briefly.
    public static let defaultBusyTimeout: TimeInterval = 5

    /// Opens the SQLite file at `path` for reading, leaving the store, its `-wal`, `-shm` and
    /// `-journal` files and its folder exactly as they were, bytes and modification times,
    /// whether the caller is root or not and even in a read-only folder; rows that are only in
    /// the `-wal` file are seen. See `ReadOnlyStore` for how, and what it costs.
    ///
    /// This is the entry point for every verb that only reads a store (scan, migrate's dry
    /// run, and anything built on them). Call `close()` when done, or let the value go.
    ///
    /// - Throws: `StoreError.cannotOpen` when the file is missing, is no SQLite database, or
    ///   cannot be read or copied.
    public static func openForReading(_ path: String) throws(StoreError) -> ReadOnlyStore {
        try checkDatabaseFile(path)
        if let pending = try pendingJournal(path) {
            return try openPrivateCopy(path, journal: pending)
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "archivist.store"
        do {
            let queue = try DatabaseQueue(path: immutableURI(path), configuration: configuration)
            return ReadOnlyStore(path: path, method: .inPlace, queue: queue, copyFolder: nil)
        } catch {
            // An SQLite built without URI support takes the URI for a file name, which a
            // read-only open cannot create: nothing was touched, so read a copy instead.
            return try openPrivateCopy(path, journal: nil)
        }
    }

    /// Opens the SQLite file at `path` for reading and writing, waiting up to `busyTimeout`
    /// seconds for another process's lock on each statement.
    ///
    /// - Throws: `StoreError.cannotOpen` when the file is missing or no SQLite database.
    static func openForWriting(_ path: String, busyTimeout: TimeInterval = defaultBusyTimeout) throws(StoreError) -> DatabaseQueue {
        try checkDatabaseFile(path)
        var configuration = Configuration()
        configuration.readonly = false
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "archivist.store"
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreError(.cannotOpen, describe(error), path: path)
        }
    }

    /// Refuses what is not an existing SQLite database file, saying what it is instead.
    static func checkDatabaseFile(_ path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StoreError(.cannotOpen, "no such file", path: path)
        }
        guard !isDirectory.boolValue else { throw StoreError(.cannotOpen, "is a folder", path: path) }
        let head: [UInt8]
        switch FileHead.read(path: path, count: ContentKind.signatureLength, readingAnyKind: true) {
        case .success(let read): head = read.bytes
        case .failure(.open(let error)): throw StoreError(.cannotOpen, "cannot read the file: \(error.systemText)", path: path)
        case .failure(.read): head = []
        }
        guard head.starts(with: header) else {
            let kind = head.withUnsafeBytes { ContentKind.sniff(head: $0) }
            let what = kind.map { ": \($0)" } ?? " (no \"SQLite format 3\" header)"
            throw StoreError(.cannotOpen, "not an SQLite database\(what)", path: path)
        }
    }

    /// The `-wal` or `-journal` file beside the store when it holds anything: rows the store
    /// file alone does not show.
    static func pendingJournal(_ path: String) throws(StoreError) -> [String]? {
        var found: [String] = []
        for suffix in ["-wal", "-journal"] {
            var info = stat()
            if stat(path + suffix, &info) == 0, info.st_size > 0 { found.append(path + suffix) }
        }
        return found.isEmpty ? nil : found
    }

    /// `file:/abs/path?immutable=1`, with the characters a URI reserves escaped.
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/-._~")
        let escaped = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        return "file:\(escaped)?immutable=1"
    }

    /// Copies the store and its journals into a private folder and opens the copy.
    static func openPrivateCopy(_ path: String, journal: [String]?) throws(StoreError) -> ReadOnlyStore {
        let base = FileManager.default.temporaryDirectory.path
        let folder: String
        switch TemporaryPaths.makeFolder(pathPrefix: base + "/archivist-store-") {
        case .success(let made): folder = made
        case .failure(let error):
            throw StoreError(.cannotOpen, "cannot make a private folder in \(base) for a copy of the store and its journal: \(error.systemText)", path: path)
        }
        let name = (path as NSString).lastPathComponent
        let copy = folder + "/" + name
        var bytes: Int64 = 0
        do throws(StoreError) {
            bytes += try copyFile(path, to: copy, storePath: path)
            for file in journal ?? [] {
                let suffix = file.hasSuffix("-wal") ? "-wal" : "-journal"
                bytes += try copyFile(file, to: copy + suffix, storePath: path)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        var configuration = Configuration()
        // The copy is ours: SQLite may write its -shm, replay the WAL or roll back a hot
        // journal there. Statements stay read-only.
        configuration.readonly = false
        configuration.label = "archivist.store-copy"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        do {
            let queue = try DatabaseQueue(path: copy, configuration: configuration)
            return ReadOnlyStore(path: path, method: .privateCopy(bytes: bytes), queue: queue, copyFolder: folder)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw StoreError(.cannotOpen, describe(error), path: path)
        }
    }

    /// Copies `source` to a new file `destination` (mode 0600) with read(2) and write(2),
    /// without changing the source's access time where the system allows.
    static func copyFile(_ source: String, to destination: String, storePath: String) throws(StoreError) -> Int64 {
        var input = open(source, O_RDONLY | O_CLOEXEC | FileFlags.noAccessTime)
        if input < 0, errno == EPERM { input = open(source, O_RDONLY | O_CLOEXEC) }
        guard input >= 0 else {
            throw StoreError(.cannotOpen, "cannot read \(source): \(String(cString: strerror(errno)))", path: storePath)
        }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw StoreError(.cannotOpen, "cannot copy to \(destination): \(String(cString: strerror(errno)))", path: storePath)
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { FileIO.read(input, into: $0) }
            if n == 0 { return total }
            if n < 0 {
                throw StoreError(.cannotOpen, "cannot read \(source): \(String(cString: strerror(errno)))", path: storePath)
            }
            if let error = buffer.withUnsafeBytes({ FileIO.writeAll(output, UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }) {
                throw StoreError(.cannotOpen, "cannot copy the store into \((destination as NSString).deletingLastPathComponent) (set TMPDIR to a folder with room for it): \(error.systemText)", path: storePath)
            }
            total += Int64(n)
        }
    }

    /// SQLite's message for a GRDB error, or the error's own description.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message.map { "SQLite: \($0)" } ?? "SQLite error \(error.resultCode)"
        }
        if let error = error as? StoreError { return error.description }
        return "\(error)"
    }

    /// Runs `body`, turning any GRDB error into a `StoreError` that names the place.
    static func sqlite<T>(_ path: String, table: String? = nil, column: String? = nil,
                          _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.sqlite, describe(error), path: path, table: table, column: column)
        }
    }

    /// `"name"` with embedded quotes doubled: table and column names come from the file.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
