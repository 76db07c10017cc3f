import CoreDataStore
import Foundation
import GRDB

/// Runs the SQLite work of a fixture writer, turning any error into a `StoreError` that names
/// the file, as the library's own store code reports them.
enum FixtureSQLite {
    static func run<T>(_ path: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(.sqlite, error.message.map { "SQLite: \($0)" } ?? "SQLite error \(error.resultCode)", path: path)
        } catch {
            throw StoreError(.sqlite, "\(error)", path: path)
        }
    }
}
