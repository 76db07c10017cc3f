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
