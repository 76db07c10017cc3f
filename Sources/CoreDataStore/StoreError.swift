/// Why a store cannot be read or changed, and where.
///
/// Every error names the store file; those about one table, column or row name them too, so a
/// user can find the row in any SQLite browser.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The file cannot be opened as SQLite (missing, not a database, locked).
        case cannotOpen
        /// An SQLite statement failed; `message` has SQLite's words.
        case sqlite
        /// The store does not have the entity, attribute, table or column asked for.
        case notFound
        /// A Core Data table (`Z_PRIMARYKEY`, `Z_METADATA`) does not hold what Core Data writes.
        case malformedSchema
        /// The backup could not be made, so nothing was changed.
        case backupFailed
        /// The caller asked for something that does not fit (a bad attribute name, a batch size of 0).
        case invalidRequest
    }

    public var code: Code
    public var message: String
    /// The store file.
    public var path: String?
    public var table: String?
    public var column: String?
    /// The row's primary key (`Z_PK`, or the rowid of a table without one).
    public var primaryKey: Int64?

    public init(_ code: Code, _ message: String, path: String? = nil, table: String? = nil, column: String? = nil,
                primaryKey: Int64? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.table = table
        self.column = column
        self.primaryKey = primaryKey
    }

    /// `<what> at <table>.<column>, Z_PK <n>`: the file name is left to the caller's prefix.
    public var description: String {
        var text = message
        var place: [String] = []
        if let table { place.append(column.map { "\(table).\($0)" } ?? table) }
        if let primaryKey { place.append("Z_PK \(primaryKey)") }
        if !place.isEmpty { text += " at " + place.joined(separator: ", ") }
        return text
    }
}
