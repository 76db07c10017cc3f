/// One table's rows and columns.
public struct TableReport: Sendable {
    public var name: String
    /// The entities whose rows live here, root first (Core Data).
    public var entityNames: [String]
    public var rowCount: Int
    /// Columns that hold or may hold documents: BLOB columns, and any other column in which a
    /// document, image or reference was found.
    public var columns: [ColumnReport]
    /// Columns holding only numbers, dates, plain text or NULL, listed but not detailed.
    public var plainColumns: [StoreColumn]
    /// The model's transient attributes of these entities: never stored, so not missing.
    public var transientAttributes: [String] = []
    /// What rows are named by in this table: `Z_PK`, the table's own INTEGER PRIMARY KEY
    /// column, or `rowid`.
    public var keyColumn: String = "Z_PK"

    public init(name: String, entityNames: [String], rowCount: Int, columns: [ColumnReport], plainColumns: [StoreColumn],
                transientAttributes: [String] = [], keyColumn: String = "Z_PK") {
        self.name = name
        self.entityNames = entityNames
        self.rowCount = rowCount
        self.columns = columns
        self.plainColumns = plainColumns
        self.transientAttributes = transientAttributes
        self.keyColumn = keyColumn
    }
}
