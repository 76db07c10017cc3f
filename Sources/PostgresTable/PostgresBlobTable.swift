import Foundation
import KeyedBlobs

/// One connection's view of a table of keyed blobs: batches read in key order (keyset
/// pagination, never `OFFSET`) within one shard, and converted values written back, each
/// batch in one transaction, each row only if it still holds the bytes that were read.
///
/// Used by one thread at a time; workers each have their own.
final class PostgresBlobTable: @unchecked Sendable {
    let connection: PostgresConnection
    let location: PostgresTableLocation
    /// The rows this connection reads.
    let shard: PostgresShard
    /// Where converted values go; nil when only reading (scan, status, dry run).
    let target: PostgresWriteTarget?
    /// Seconds a batch may wait for its row locks before it is rolled back and retried later.
    let lockTimeout: Double?

    /// With `shardsReported` N, each row also says which shard of N it is in (`--status`).
    init(connection: PostgresConnection, location: PostgresTableLocation, shard: PostgresShard,
         target: PostgresWriteTarget?, lockTimeout: Double?, shardsReported: Int? = nil) {
        self.connection = connection
        self.location = location
        self.shard = shard
        self.target = target
        self.lockTimeout = lockTimeout
        statements = Statements(location: location, shard: shard, target: target, shardsReported: shardsReported)
    }

    let statements: Statements

    /// The SQL, built once from quoted names.
    struct Statements {
        let first: String
        let next: String
        let byKeys: String
        let update: String?

        init(location: PostgresTableLocation, shard: PostgresShard, target: PostgresWriteTarget?, shardsReported: Int?) {
            let table = location.quotedTable
            let key = location.key.quoted
            let column = location.column.quoted
            let wire = location.keyType.wireTypeName
            let shardCondition = shard.condition(hash: location.keyType.shardHash(of: key))
            // With --into, a row whose target is filled is done: its value is not even sent.
            var selected: String
            if let target, target.isSeparateColumn {
                let into = target.column.quoted
                selected = "\(key), CASE WHEN \(into) IS NULL THEN \(column) END, \(into) IS NOT NULL"
            } else {
                selected = "\(key), \(column), false"
            }
            if let shardsReported {
                selected += ", (\(location.keyType.shardHash(of: key)) % \(shardsReported))::int8"
            }
            let filter = shardCondition.isEmpty ? "" : " AND \(shardCondition)"
            first = "SELECT \(selected) FROM \(table) WHERE true\(filter) ORDER BY \(key) LIMIT $1"
            next = "SELECT \(selected) FROM \(table) WHERE \(key) > $2::\(wire)\(filter) ORDER BY \(key) LIMIT $1"
            byKeys = "SELECT \(selected) FROM \(table) WHERE \(key) = ANY($1::\(wire)[]) ORDER BY \(key)"
            guard let target else {
                update = nil
                return
            }
            let oldType = location.column.storage == .bytes ? "bytea" : "text"
            let newType = target.parameterType == PostgresType.bytea ? "bytea" : "text"
            var sql = """
                WITH u AS (UPDATE \(table) AS t SET \(target.column.quoted) = v.new\(target.valueCast) \
                FROM unnest($1::\(wire)[], $2::\(newType)[], $3::\(oldType)[]) AS v(k, new, old) \
                WHERE t.\(key) = v.k AND t.\(column) = v.old
                """
            if target.isSeparateColumn { sql += " AND t.\(target.column.quoted) IS NULL" }
            // The updated rows keep their old bytes only for the backup table: otherwise the
            // server would copy every old value into the statement's result for nothing.
            sql += target.backupTable == nil ? " RETURNING t.\(key) AS k)" : " RETURNING t.\(key) AS k, v.old AS old)"
            if let backup = target.backupTable {
                sql += """
                    , b AS (INSERT INTO \(backup.quoted) (\(key), \(column)) SELECT k, old FROM u \
                    ON CONFLICT (\(key)) DO UPDATE SET \(column) = EXCLUDED.\(column), saved_at = now())
                    """
            }
            sql += " SELECT k FROM u"
            update = sql
        }
    }

    /// Up to `limit` rows after `after` (from the first when nil), in key order.
    func read(after: PostgresKey?, limit: Int) throws(PostgresError) -> PostgresRowBatch {
        let result = if let after {
            try connection.query(statements.next, [.int64(Int64(limit)), PostgresParameter(bytes: after.binary, type: location.keyType.wireType, isBinary: true)])
        } else {
            try connection.query(statements.first, [.int64(Int64(limit))])
        }
        var batch = rows(of: result)
        batch.isFull = batch.count == limit
        return batch
    }

    /// The rows with these keys, as they are now (for a batch retried after a lock timeout).
    func read(keys: [PostgresKey]) throws(PostgresError) -> PostgresRowBatch {
        let result = try connection.query(statements.byKeys, [.array(keys.map(\.binary), elementType: location.keyType.wireType)])
        return rows(of: result)
    }

    func rows(of result: PostgresResult) -> PostgresRowBatch {
        var batch = PostgresRowBatch()
        let count = result.rowCount
        let isText = location.column.storage != .bytes
        batch.keys.reserveCapacity(count)
        batch.values.reserveCapacity(count)
        for row in 0..<count {
            guard let key = location.keyType.key(in: result, row: row, column: 0) else { continue }
            batch.keys.append(key)
            if result.columnCount > 3 { batch.shards.append(Int(result.int64(row, 3) ?? 0)) }
            if result.bool(row, 2) == true {
                batch.values.append(.done)
            } else if let data = result.data(row, 1) {
                batch.values.append(isText ? .text(data) : .bytes(data))
            } else {
                batch.values.append(.null)
            }
        }
        return batch
    }

    /// One converted value to write, guarded by the value that was read.
    struct Change: Sendable {
        var key: PostgresKey
        var old: Data
        var new: Data
    }

    /// Writes `changes` in one transaction and returns the keys written; a row that no longer
    /// holds its old value (or, with `--into`, whose target was filled meanwhile) is left as it
    /// is and missing from the answer. When the database refuses a value (a constraint, a
    /// trigger, jsonb's limits), the batch is written again row by row, each under a
    /// savepoint, so the other rows go in and the refused ones are named.
    ///
    /// - Throws: `PostgresError`; `isRetryable` when the row locks were not granted within
    ///   `lockTimeout` (or a deadlock or serialization failure): the transaction is rolled back
    ///   and nothing is written.
    func write(_ changes: [Change]) throws(PostgresError) -> (written: Set<PostgresKey>, rejected: [PostgresKey: String]) {
        guard !changes.isEmpty, target != nil else { return ([], [:]) }
        do throws(PostgresError) {
            return (try transaction { () throws(PostgresError) in try update(changes) }, [:])
        } catch where Self.isRefusal(error) {
            return try transaction { () throws(PostgresError) in
                var written = Set<PostgresKey>()
                var rejected: [PostgresKey: String] = [:]
                for change in changes {
                    try connection.execute("SAVEPOINT archivist_row")
                    do throws(PostgresError) {
                        written.formUnion(try update([change]))
                        try connection.execute("RELEASE SAVEPOINT archivist_row")
                    } catch where Self.isRefusal(error) {
                        try connection.execute("ROLLBACK TO SAVEPOINT archivist_row")
                        rejected[change.key] = error.message
                    }
                }
                return (written, rejected)
            }
        }
    }

    /// A data exception, an integrity violation or a trigger's exception: about the values,
    /// not the run.
    static func isRefusal(_ error: PostgresError) -> Bool {
        guard let state = error.sqlState else { return false }
        return state.hasPrefix("22") || state.hasPrefix("23") || state == "P0001"
    }

    /// `body` in a transaction with the lock timeout, committed; rolled back if it throws.
    func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        // One round trip: the transaction and its lock timeout.
        try connection.execute("BEGIN" + (lockTimeout.map { "; SET LOCAL lock_timeout = '\(max(1, Int(($0 * 1000).rounded())))ms'" } ?? ""))
        do throws(PostgresError) {
            let value = try body()
            try connection.execute("COMMIT")
            return value
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The guarded update of `changes`; the keys it wrote.
    func update(_ changes: [Change]) throws(PostgresError) -> Set<PostgresKey> {
        guard let update = statements.update, let target else { return [] }
        let result = try connection.query(update, [
            .array(changes.map(\.key.binary), elementType: location.keyType.wireType),
            .array(changes.map(\.new), elementType: target.parameterType),
            .array(changes.map(\.old), elementType: location.column.storage == .bytes ? PostgresType.bytea : PostgresType.text),
        ])
        var written = Set<PostgresKey>()
        for row in 0..<result.rowCount {
            if let key = location.keyType.key(in: result, row: row, column: 0) { written.insert(key) }
        }
        return written
    }
}
