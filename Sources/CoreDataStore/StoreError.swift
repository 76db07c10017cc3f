import PropertyList

/// Why a store cannot be read or changed, and where.
///
/// Every error names the store file; those about one table, column or row name them too, so a
/// user can find the row in any SQLite browser.
public struct StoreError: LookupError, RequestError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .cannotOpen`); see `ErrorCode`.
    /// Besides its own kinds, the shared kinds: `notFound` (the store does not have the entity, attribute,
    /// table or column asked for), `invalidRequest` (a bad attribute name, a batch size of 0).
    public typealias Code = ErrorCode<StoreError>

    public static let codeNames: Set<String> = [
        "cannotOpen", "sqlite", "notFound", "malformedSchema", "backupFailed", "invalidRequest"
    ]

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

extension ErrorCode where Domain == StoreError {
    /// The file cannot be opened as SQLite (missing, not a database, locked).
    public static var cannotOpen: Self { Self() }

    /// An SQLite statement failed; `message` has SQLite's words.
    public static var sqlite: Self { Self() }

    /// A Core Data table (`Z_PRIMARYKEY`, `Z_METADATA`) does not hold what Core Data writes.
    public static var malformedSchema: Self { Self() }

    /// The backup could not be made, so nothing was changed.
    public static var backupFailed: Self { Self() }
}
