import Foundation
import KeyedBlobs

/// Rows read together, in key order.
struct PostgresRowBatch: KeyedBlobBatch {
    var keys: [PostgresKey] = []
    /// Each row's value: bytes for a `bytea` column, UTF-8 for a text one; `.done` with
    /// `--into` when the target column is filled already (its value is not even sent).
    var values: [KeyedBlobValue] = []
    /// Each row's shard (from 0), when asked for (`--status`).
    var shards: [Int] = []
    /// Whether the batch is as large as asked: there may be more rows after it.
    var isFull = false

    var count: Int { keys.count }

    /// The bytes the row held when read: what its update is guarded by.
    func old(_ index: Int) -> Data? {
        switch values[index] {
        case .bytes(let data), .text(let data): data
        case .null, .number, .done: nil
        }
    }
}
