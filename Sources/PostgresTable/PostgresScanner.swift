import ArchivePayload
import Foundation
import KeyedBlobs

/// Reports what a PostgreSQL column holds, without changing it, in read-only transactions
/// (a role with only `SELECT` is enough).
///
/// Rows are read in keyset batches (never `OFFSET`), each in its own short transaction, so no
/// snapshot is held for the whole table and memory depends on the batch size only. While one
/// batch is classified on every core, the next is read.
public struct PostgresScanner: Sendable {
    public var options: PostgresScanOptions

    public init(options: PostgresScanOptions = PostgresScanOptions()) {
        self.options = options
    }

    /// Scans `request.column` of `request.table` at `url`.
    ///
    /// - Parameter progress: called after each batch, on this thread; the total is the
    ///   server's estimate of the table's rows (divided among the shards).
    /// - Throws: `PostgresError` when the column cannot be read.
    public func scan(_ url: PostgresURL, _ request: PostgresTableLocation.Request,
                     progress: ((ScanProgress) -> Void)? = nil) throws(PostgresError) -> PostgresScanReport {
        guard options.batchSize >= 1 else { throw PostgresError(.invalidRequest, "--batch must be at least 1") }
        let start = DispatchTime.now().uptimeNanoseconds
        let connection = try PostgresConnection(url: url, options: .init(connectTimeout: options.connectTimeout, readOnly: true))
        let location = try PostgresTableLocation.locate(request, on: connection)
        let judge = AllowListJudge(allowList: options.allowList)
        let maximumExamples = options.maximumExamples
        var tally = ValueTally<PostgresKey>()
        let total = (location.estimatedRows ?? 0) / options.shard.count
        try classifyAll(PostgresBlobTable(connection: connection, location: location, shard: options.shard, target: nil, lockTimeout: nil)) { batch, stored in
            for index in batch.keys.indices {
                tally.record(stored[index], key: batch.keys[index], judge: judge, maximumExamples: maximumExamples)
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            progress?(ScanProgress(processed: tally.rowCount, total: max(total, tally.rowCount), elapsed: elapsed))
        }
        return PostgresScanReport(source: url.redacted, location: location, shard: options.shard, allowList: options.allowList,
                                  tally: tally, elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// How many rows each of `shards` parts of the keys still has to convert to `target` (into
    /// `into`, when given), read from the data itself in one pass.
    public func status(_ url: PostgresURL, _ request: PostgresTableLocation.Request, target: ConversionTarget, into: String? = nil,
                       shards: Int, progress: ((ScanProgress) -> Void)? = nil) throws(PostgresError) -> PostgresStatusReport {
        let start = DispatchTime.now().uptimeNanoseconds
        let connection = try PostgresConnection(url: url, options: .init(connectTimeout: options.connectTimeout, readOnly: true))
        let location = try PostgresTableLocation.locate(request, on: connection)
        var write: PostgresWriteTarget?
        if let into {
            let columns = try PostgresTableLocation.columns(of: try location.oid(on: connection), on: connection)
            let column = try PostgresTableLocation.find(into, in: columns, table: location.tableName, role: "column (--into)")
            write = PostgresWriteTarget(column: column, isSeparateColumn: true, backupTable: nil)
        }
        let converter = ValueConverter(options: ConversionOptions(target: target, readOptions: options.readOptions))
        var report = PostgresStatusReport(source: url.redacted, location: location, target: target, into: write?.column,
                                          shards: (1...max(1, shards)).map { .init(shard: PostgresShard(uncheckedIndex: $0, count: max(1, shards))) },
                                          elapsed: 0)
        var processed = 0
        let total = location.estimatedRows ?? 0
        let table = PostgresBlobTable(connection: connection, location: location, shard: .all, target: write, lockTimeout: nil,
                                      shardsReported: max(1, shards))
        try classifyAll(table, decodesArchives: false) { batch, stored in
            for index in batch.keys.indices {
                let shard = batch.shards.indices.contains(index) ? batch.shards[index] : 0
                let disposition: ValueDisposition = if case .done = batch.values[index] { .done } else { converter.disposition(of: stored[index]) }
                report.shards[shard].rows += 1
                report.shards[shard].dispositions[disposition, default: 0] += 1
            }
            processed += batch.count
            progress?(ScanProgress(processed: processed, total: max(total, processed),
                                   elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        }
        report.elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return report
    }

    /// Reads every batch of `table` and hands it over classified, reading the next batch while
    /// the last one is classified on other threads.
    func classifyAll(_ table: PostgresBlobTable, decodesArchives: Bool = true,
                     _ body: (PostgresRowBatch, [StoredValue]) -> Void) throws(PostgresError) {
        let classifier = StoredValueClassifier(readOptions: options.readOptions, decodesArchives: decodesArchives)
        let parallelism = options.parallelism, stackSize = options.workerStackSize
        @Sendable func classify(_ values: [KeyedBlobValue]) -> [StoredValue] {
            ParallelBatch.map(values, parallelism: parallelism, stackSize: stackSize, placeholder: StoredValue(kind: .null)) { value in
                switch value {
                case .null, .done: StoredValue(kind: .null)
                case .number: StoredValue(kind: .number)
                case .bytes(let data): classifier.classify(data)
                case .text(let data): classifier.classify(data, isText: true)
                }
            }
        }
        var lane = PostgresLane(table: table)
        var current = try lane.readNext(limit: options.batchSize)
        var classifying = current.map { Classification(values: $0.values, classify) }
        while let batch = current, let classification = classifying {
            let next = try lane.readNext(limit: options.batchSize)
            let stored = classification.wait()
            classifying = next.map { Classification(values: $0.values, classify) }
            body(batch, stored)
            current = next
        }
    }

    /// Values being classified on other threads.
    final class Classification: @unchecked Sendable {
        let group = DispatchGroup()
        // Written once by the worker before `leave`, read only after `wait`.
        var stored: [StoredValue] = []

        init(values: [KeyedBlobValue], _ classify: @escaping @Sendable ([KeyedBlobValue]) -> [StoredValue]) {
            group.enter()
            DispatchQueue.global().async { [self] in
                stored = classify(values)
                group.leave()
            }
        }

        func wait() -> [StoredValue] {
            group.wait()
            return stored
        }
    }
}
