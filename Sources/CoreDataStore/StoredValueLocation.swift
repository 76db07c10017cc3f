/// Where a scanned value was read: its table, column and row.
public struct StoredValueLocation: Sendable, Hashable {
    public var table: String
    public var column: String
    /// `StoreTable.keyColumn`: `Z_PK` in Core Data tables, the INTEGER PRIMARY KEY column in
    /// others, else `rowid`; `row` (its ordinal) in a table without a rowid.
    public var keyColumn: String
    public var primaryKey: Int64

    public init(table: String, column: String, keyColumn: String, primaryKey: Int64) {
        self.table = table
        self.column = column
        self.keyColumn = keyColumn
        self.primaryKey = primaryKey
    }
}
