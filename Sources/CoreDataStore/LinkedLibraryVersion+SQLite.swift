import PropertyList
#if canImport(GRDBSQLite)
internal import GRDBSQLite
#else
internal import SQLite3
#endif

extension LinkedLibraryVersion {
    /// SQLite, which GRDB opens Core Data stores with.
    public static var sqlite: LinkedLibraryVersion {
        LinkedLibraryVersion(name: "SQLite", compiledVersion: SQLITE_VERSION, loadedVersion: String(cString: sqlite3_libversion()))
    }
}
