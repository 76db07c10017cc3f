import Foundation
import KeyedBlobs

/// One lane of a PostgreSQL migration, as the engine drives it: a connection, its part of the
/// keys, and the cursor through them.
struct PostgresLane: KeyedBlobTable {
    let table: PostgresBlobTable
    /// Pauses while a standby replays too far behind (`--max-replication-lag`).
    var lag: ReplicationLagProbe?
    /// The last key read; nil before the first batch.
    var last: PostgresKey?
    var finished = false

    mutating func readNext(limit: Int) throws(PostgresError) -> PostgresRowBatch? {
        guard !finished else { return nil }
        let batch = try table.read(after: last, limit: limit)
        guard let key = batch.keys.last else {
            finished = true
            return nil
        }
        last = key
        if !batch.isFull { finished = true }
        return batch
    }

    mutating func write(_ values: [(index: Int, bytes: Data)], of batch: PostgresRowBatch) throws(PostgresError) -> KeyedBlobWrite {
        var changes: [PostgresBlobTable.Change] = []
        var indexes: [PostgresKey: Int] = [:]
        for (index, bytes) in values {
            guard let old = batch.old(index) else { continue }
            changes.append(.init(key: batch.keys[index], old: old, new: bytes))
            indexes[batch.keys[index]] = index
        }
        let (written, rejected) = try table.write(changes)
        var result = KeyedBlobWrite(written: Set(written.compactMap { indexes[$0] }))
        for (key, reason) in rejected { if let index = indexes[key] { result.rejected[index] = reason } }
        return result
    }

    mutating func reread(_ batch: PostgresRowBatch) throws(PostgresError) -> PostgresRowBatch {
        try table.read(keys: batch.keys)
    }

    func isRetryable(_ error: PostgresError) -> Bool { error.isRetryable }

    mutating func pauseReason() throws(PostgresError) -> String? {
        guard var probe = lag else { return nil }
        defer { lag = probe }
        return try probe.pauseReason(on: table.connection)
    }
}

/// Reads how far the standbys replay behind (`pg_stat_replication.replay_lag`), at most once a
/// second while they keep up, and says why to wait while one is too far behind.
struct ReplicationLagProbe: Sendable {
    /// Seconds a standby may be behind.
    let maximum: Double
    /// The query; tests replace it, having no standby.
    let sql: String
    var checkedAt: UInt64 = 0

    static let defaultSQL = "SELECT COALESCE(max(EXTRACT(epoch FROM replay_lag)), 0)::float8 FROM pg_stat_replication"

    mutating func pauseReason(on connection: PostgresConnection) throws(PostgresError) -> String? {
        let now = DispatchTime.now().uptimeNanoseconds
        if checkedAt != 0, now - checkedAt < 1_000_000_000 { return nil }
        let lag = try connection.query(sql).double(0, 0) ?? 0
        guard lag > maximum else {
            checkedAt = now
            return nil
        }
        checkedAt = 0
        return String(format: "paused: a standby replays %.1f s behind (--max-replication-lag %@ s)", lag,
                      maximum.formatted(.number.precision(.fractionLength(0...3))))
    }
}
