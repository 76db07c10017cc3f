/// The table, column and key a PostgreSQL scan or migration works on, checked against the
/// server's catalog before anything is read or written.
public struct PostgresTableLocation: Sendable, Hashable, CustomStringConvertible {
    public var schema: String
    public var table: String
    /// The column of documents.
    public var column: PostgresColumn
    /// The key batches are ordered and matched by: the primary key unless `--key` names another.
    public var key: PostgresColumn
    public var keyType: PostgresKeyType
    /// The table's estimated row count (`pg_class.reltuples`), for progress before counting.
    public var estimatedRows: Int?

    /// `schema.table`, as reports show it.
    public var tableName: String { "\(schema).\(table)" }
    /// `schema.table.column`.
    public var description: String { "\(tableName).\(column.name)" }

    /// `"schema"."table"` for SQL.
    var quotedTable: String { PostgresConnection.quote(schema) + "." + PostgresConnection.quote(table) }

    /// What a request names: `[SCHEMA.]TABLE`, the column, and optionally the key.
    public struct Request: Sendable, Hashable {
        public var table: String
        public var column: String
        public var key: String?

        public init(table: String, column: String, key: String? = nil) {
            self.table = table
            self.column = column
            self.key = key
        }
    }

    /// Finds the table and checks the column and key.
    ///
    /// The table name is read as SQL reads it (`to_regclass`): unquoted names fold to lower
    /// case, `"Quoted"` ones keep theirs, and without a schema the search path decides.
    /// Column names match exactly, or else case-insensitively when only one column matches.
    ///
    /// - Throws: `PostgresError` `.notFound` (table, column, key), `.wrongType` (the column holds
    ///   no documents; the key is not an integer or uuid, or not unique), `.permissionDenied`.
    static func locate(_ request: Request, on connection: PostgresConnection) throws(PostgresError) -> PostgresTableLocation {
        let relation: PostgresResult
        do {
            relation = try connection.query("""
                SELECT c.oid::int8, n.nspname::text, c.relname::text, c.relkind::text, c.reltuples::int8
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass($1)
                """, [.text(request.table)])
        } catch {
            // A name to_regclass cannot parse ("a.b.c.d", an unclosed quote).
            throw PostgresError(.notFound, "no table \(request.table): \(error.message)")
        }
        guard relation.rowCount == 1, let oid = relation.int64(0, 0), let schema = relation.string(0, 1),
              let table = relation.string(0, 2) else {
            let path = (try? connection.query("SELECT array_to_string(current_schemas(false), ', ')").string(0, 0)) ?? nil
            throw PostgresError(.notFound, "no table \(request.table)" + (path.map { " (the search path holds \($0))" } ?? ""))
        }
        let qualified = "\(schema).\(table)"
        let kind = relation.string(0, 3) ?? "?"
        guard kind == "r" || kind == "p" else {
            let what = ["v": "a view", "m": "a materialized view", "f": "a foreign table", "S": "a sequence", "i": "an index"][kind] ?? "not a table"
            throw PostgresError(.wrongType, "\(qualified) is \(what); scan and migrate read tables")
        }
        let columns = try Self.columns(of: oid, on: connection)
        let column = try Self.find(request.column, in: columns, table: qualified, role: "column")
        guard column.storage == .bytes || column.storage == .text else {
            throw PostgresError(.wrongType, "\(column.name) is \(column.typeName); scan and migrate read bytea or text columns",
                                table: qualified)
        }
        let key: PostgresColumn
        if let name = request.key {
            key = try Self.find(name, in: columns, table: qualified, role: "key column (--key)")
            guard key.name != column.name else {
                throw PostgresError(.invalidRequest, "--key names the column being read (\(key.name))", table: qualified)
            }
            guard PostgresKeyType(typeOID: key.baseType) != nil else {
                throw PostgresError(.wrongType, "--key \(key.name) is \(key.typeName); a key must be smallint, integer, bigint or uuid",
                                    table: qualified)
            }
            guard try Self.isUniqueNotNull(key, table: oid, on: connection) else {
                throw PostgresError(.wrongType, "--key \(key.name) is not unique and NOT NULL (no unique index on it alone); "
                                    + "keyset batches would skip or repeat rows", table: qualified)
            }
        } else {
            let primary = try connection.query("""
                SELECT a.attname::text FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                WHERE i.indrelid = $1::int8::oid AND i.indisprimary
                """, [.int64(oid)])
            let names = (0..<primary.rowCount).compactMap { primary.string($0, 0) }
            guard names.count == 1, let found = columns.first(where: { $0.name == names[0] }) else {
                let has = names.isEmpty ? "has no primary key" : "has a primary key of \(names.count) columns (\(names.joined(separator: ", ")))"
                throw PostgresError(.invalidRequest, "\(qualified) \(has); name a unique NOT NULL smallint, integer, bigint or uuid column with --key")
            }
            guard PostgresKeyType(typeOID: found.baseType) != nil else {
                throw PostgresError(.wrongType, "the primary key \(found.name) of \(qualified) is \(found.typeName); "
                                    + "name a unique NOT NULL smallint, integer, bigint or uuid column with --key")
            }
            key = found
        }
        guard let keyType = PostgresKeyType(typeOID: key.baseType) else {
            throw PostgresError(.wrongType, "\(key.name) is \(key.typeName)", table: qualified)
        }
        let estimate = relation.int64(0, 4).map { Int($0) }
        let location = PostgresTableLocation(schema: schema, table: table, column: column, key: key, keyType: keyType,
                                             estimatedRows: estimate.flatMap { $0 >= 0 ? $0 : nil })
        try location.require("SELECT", on: [column, key], connection: connection)
        return location
    }

    /// Every live column of the table, in order.
    static func columns(of table: Int64, on connection: PostgresConnection) throws(PostgresError) -> [PostgresColumn] {
        let result = try connection.query("""
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), \
            (CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END)::int8, a.attnotnull
            FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
            WHERE a.attrelid = $1::int8::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """, [.int64(table)])
        return (0..<result.rowCount).compactMap { row in
            guard let name = result.string(row, 0), let type = result.string(row, 1), let base = result.int64(row, 2) else { return nil }
            return PostgresColumn(name: name, typeName: type, baseType: UInt32(truncatingIfNeeded: base), isNotNull: result.bool(row, 3) ?? false)
        }
    }

    /// The column named `name`: exactly, or else the only one equal ignoring case.
    static func find(_ name: String, in columns: [PostgresColumn], table: String, role: String) throws(PostgresError) -> PostgresColumn {
        if let exact = columns.first(where: { $0.name == name }) { return exact }
        let folded = columns.filter { $0.name.lowercased() == name.lowercased() }
        if folded.count == 1 { return folded[0] }
        let names = columns.map(\.name).joined(separator: ", ")
        throw PostgresError(.notFound, "no \(role) \(name) (the columns are \(names))", table: table)
    }

    /// Whether a unique, non-partial index covers `column` alone and the column is NOT NULL.
    static func isUniqueNotNull(_ column: PostgresColumn, table: Int64, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        guard column.isNotNull else { return false }
        let result = try connection.query("""
            SELECT count(*)::int8 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attname = $2
            WHERE i.indrelid = $1::int8::oid AND i.indisunique AND i.indnkeyatts = 1 AND i.indkey[0] = a.attnum
            AND i.indpred IS NULL AND i.indexprs IS NULL
            """, [.int64(table), .text(column.name)])
        return (result.int64(0, 0) ?? 0) > 0
    }

    /// Throws `.permissionDenied` unless the session's role holds `privilege` on each column.
    func require(_ privilege: String, on columns: [PostgresColumn], connection: PostgresConnection) throws(PostgresError) {
        for column in columns {
            let result = try connection.query("SELECT has_column_privilege($1::regclass, $2, $3)",
                                              [.text(quotedTable), .text(column.name), .text(privilege)])
            guard result.bool(0, 0) == true else {
                throw PostgresError(.permissionDenied, "role \(connection.user) may not \(privilege) \(tableName).\(column.name)"
                                    + (privilege == "SELECT" ? "" : "; migrate needs \(privilege) on it (scan needs only SELECT)"))
            }
        }
    }
}

extension PostgresTableLocation {
    /// The table's OID now.
    func oid(on connection: PostgresConnection) throws(PostgresError) -> Int64 {
        guard let oid = try connection.query("SELECT $1::regclass::oid::int8", [.text(quotedTable)]).int64(0, 0) else {
            throw PostgresError(.notFound, "the table is gone", table: tableName)
        }
        return oid
    }
}
