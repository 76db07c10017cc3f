import Foundation

/// Rows read together, in key order.
struct PostgresRowBatch: Sendable {
    var keys: [PostgresKey] = []
    /// The column's bytes (UTF-8 for a text column); nil for NULL, and for rows whose `--into`
    /// column is filled already (`done`).
    var values: [Data?] = []
    /// With `--into`: whether the row's target column holds a value already.
    var done: [Bool] = []
    /// Whether the batch is as large as asked: there may be more rows after it.
    var isFull = false
    /// Bytes of values held.
    var byteCount = 0

    var count: Int { keys.count }
}
