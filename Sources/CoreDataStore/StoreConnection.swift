import Foundation
import GRDB

/// Opens store files through GRDB: read-only unless the caller is about to change the store, and
/// never creating a file that is not there (SQLite would happily make an empty database).
enum StoreConnection {
    /// The first 16 bytes of every SQLite 3 database file.
    static let header = Array("SQLite format 3\u{0}".utf8)

    /// A connection to the existing SQLite file at `path`.
    ///
    /// - Parameter writable: open read-write; otherwise SQLite refuses every write.
    static func open(_ path: String, writable: Bool) throws(StoreError) -> DatabaseQueue {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StoreError(.cannotOpen, "no such file", path: path)
        }
        guard !isDirectory.boolValue else { throw StoreError(.cannotOpen, "is a directory", path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError(.cannotOpen, "cannot read the file", path: path)
        }
        let head = (try? handle.read(upToCount: header.count)) ?? nil
        try? handle.close()
        guard let head, Array(head) == header else {
            throw StoreError(.cannotOpen, "not an SQLite database (no \"SQLite format 3\" header)", path: path)
        }
        var configuration = Configuration()
        configuration.readonly = !writable
        // A Core Data app that still has the store open holds its lock briefly; wait for it.
        configuration.busyMode = .timeout(5)
        configuration.label = "archivist.store"
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreError(.cannotOpen, describe(error), path: path)
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
