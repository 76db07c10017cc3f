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
