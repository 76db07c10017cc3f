/// Where a migration writes converted values, and in what SQL type.
public struct PostgresWriteTarget: Sendable, Hashable {
    /// The column written: the source column in place, or the `--into` column.
    public var column: PostgresColumn
    /// Whether it is another column than the source (`--into`).
    public var isSeparateColumn: Bool
    /// `schema.table` of `--backup-table`, kept in place only.
    public var backupTable: PostgresBackupTable?

    /// How values are sent: `bytea`, `text`, or text cast to `jsonb`/`json`.
    var parameterType: UInt32 { column.storage == .bytes ? PostgresType.bytea : PostgresType.text }
    /// The cast applied to a sent value in SQL.
    var valueCast: String {
        switch column.storage {
        case .bytes: ""
        case .json: column.baseType == PostgresType.jsonb ? "::jsonb" : "::json"
        case .text, .other: ""
        }
    }
}

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
