/// `--backup-table`: each changed row's key and old value, written in the batch's transaction.
///
/// Its columns are named as the table's key and column, so restoring is one statement:
/// `UPDATE t SET col = b.col FROM backup b WHERE t.key = b.key`. A row converted again after
/// the app rewrote it keeps its latest old value (the one a restore should put back).
public struct PostgresBackupTable: Sendable, Hashable, CustomStringConvertible {
    public var schema: String
    public var table: String

    public var description: String { "\(schema).\(table)" }
    var quoted: String { PostgresConnection.quote(schema) + "." + PostgresConnection.quote(table) }
}

extension PostgresBackupTable {
    /// Finds or makes the backup table `name` (`[SCHEMA.]NAME`; without a schema, the
    /// migrated table's): a key column and a value column named and typed as the table's,
    /// and `saved_at`.
    ///
    /// - Throws: `.wrongType` when a table of that name exists in another shape,
    ///   `.permissionDenied` when the role cannot write it or create it.
    static func prepare(_ name: String, for location: PostgresTableLocation, on connection: PostgresConnection) throws(PostgresError) -> PostgresBackupTable {
        let parts: PostgresResult
        do {
            parts = try connection.query("SELECT (parse_ident($1))[1], (parse_ident($1))[2], array_length(parse_ident($1), 1)::int8", [.text(name)])
        } catch {
            throw PostgresError(.invalidRequest, "--backup-table \(name): \(error.message)")
        }
        let count = parts.int64(0, 2) ?? 0
        guard count == 1 || count == 2, let first = parts.string(0, 0) else {
            throw PostgresError(.invalidRequest, "--backup-table \(name): expected [SCHEMA.]TABLE")
        }
        let backup = count == 2 ? PostgresBackupTable(schema: first, table: parts.string(0, 1) ?? "")
                                : PostgresBackupTable(schema: location.schema, table: first)
        guard backup.schema != location.schema || backup.table != location.table else {
            throw PostgresError(.invalidRequest, "--backup-table names the table being migrated")
        }
        let key = location.key, column = location.column
        let existing = try connection.query("""
            SELECT c.oid::int8 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2
            """, [.text(backup.schema), .text(backup.table)])
        if let oid = existing.int64(0, 0) {
            let columns = try PostgresTableLocation.columns(of: oid, on: connection)
            let keyColumn = columns.first { $0.name == key.name && $0.baseType == key.baseType }
            let valueColumn = columns.first { $0.name == column.name && $0.storage == column.storage }
            guard let keyColumn, valueColumn != nil, columns.contains(where: { $0.name == "saved_at" }),
                  try PostgresTableLocation.isUniqueNotNull(keyColumn, table: oid, on: connection) else {
                throw PostgresError(.wrongType, "--backup-table \(backup) exists but is not a backup of \(location.tableName): it needs a unique "
                                    + "\(key.name) \(key.typeName), \(column.name) \(column.typeName) and saved_at")
            }
            for privilege in ["INSERT", "UPDATE"] {
                let allowed = try connection.query("SELECT has_table_privilege($1::regclass, $2)", [.text(backup.quoted), .text(privilege)]).bool(0, 0)
                guard allowed == true else {
                    throw PostgresError(.permissionDenied, "role \(connection.user) may not \(privilege) \(backup) (--backup-table)")
                }
            }
            return backup
        }
        let creatable = try connection.query("SELECT has_schema_privilege(n.oid, 'CREATE') FROM pg_namespace n WHERE n.nspname = $1",
                                             [.text(backup.schema)])
        guard creatable.rowCount == 1 else { throw PostgresError(.notFound, "--backup-table \(backup): no schema \(backup.schema)") }
        guard creatable.bool(0, 0) == true else {
            throw PostgresError(.permissionDenied, "role \(connection.user) may not create \(backup) (--backup-table) in schema \(backup.schema)")
        }
        do {
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS \(backup.quoted) (\(key.quoted) \(key.typeName) PRIMARY KEY, \
                \(column.quoted) \(column.typeName), saved_at timestamptz NOT NULL DEFAULT now())
                """)
        } catch where error.sqlState == "23505" || error.sqlState == "42P07" {
            // Another shard's process created it at the same moment.
        }
        return backup
    }
}
