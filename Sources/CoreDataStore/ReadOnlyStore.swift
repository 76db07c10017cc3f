import Foundation
import GRDB

/// An SQLite store opened so that reading it changes nothing: not the store, not its `-wal`,
/// `-shm` or `-journal` files, not its folder, not their modification times, whoever runs it
/// and however the folder is mounted.
///
/// An ordinary read-only SQLite connection does not promise that. On a WAL store it creates
/// `-shm` and `-wal` files beside the store (and as root leaves them there), and in a read-only
/// folder it cannot open the store at all. So:
///
/// - When the store has no `-wal` or `-journal` file with anything in it, it is opened with
///   SQLite's `immutable` URI parameter: no locks, no journal, no shared memory, no file
///   created. This costs nothing.
/// - Otherwise the rows in that file are part of the store (a WAL holds the latest commits
///   until a checkpoint; a hot journal holds what must be rolled back), and SQLite can only
///   use them by writing beside the store. The store and its `-wal`/`-journal` are then copied
///   into a private temporary folder (`TMPDIR`, mode 0700) and read there; the copy is deleted
///   on `close()`. This costs the time and space of one copy.
///
/// Either way the store is assumed not to change while it is read: evidence does not, and a
/// store an app is writing should be copied (or the app quit) first.
public final class ReadOnlyStore: @unchecked Sendable {
    /// How the store is being read.
    public enum Method: Sendable, Hashable {
        /// In place, through SQLite's `immutable=1`.
        case inPlace
        /// Through a private copy of the store and its `-wal`/`-journal`, of this many bytes.
        case privateCopy(bytes: Int64)
    }

    /// The store as the caller named it.
    public let path: String
    public let method: Method
    /// The connection: read-only, whichever method.
    public let queue: DatabaseQueue
    /// The private folder holding the copy, removed on `close()`.
    private let copyFolder: String?
    private let lock = NSLock()
    private var closed = false

    init(path: String, method: Method, queue: DatabaseQueue, copyFolder: String?) {
        self.path = path
        self.method = method
        self.queue = queue
        self.copyFolder = copyFolder
    }

    deinit { close() }

    /// Runs `body` in one read transaction: one consistent snapshot of the store.
    ///
    /// - Throws: a `StoreError` naming the store when SQLite fails; `body`'s own `StoreError`s
    ///   as they are.
    public func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try StoreConnection.sqlite(path) { try queue.read(body) }
    }

    /// Closes the connection and deletes the private copy, if one was made. Safe to call twice.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        try? queue.close()
        if let copyFolder { try? FileManager.default.removeItem(atPath: copyFolder) }
    }
}
