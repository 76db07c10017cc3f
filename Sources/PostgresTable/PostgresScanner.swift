import ArchivePayload
import Foundation
import KeyedArchive
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
    /// - Parameters:
    ///   - url: the server and database to connect to.
    ///   - request: the table, column and key to scan.
    ///   - progress: called after each batch, on this thread; the total is the server's
    ///     estimate of the table's rows (divided among the shards).
    /// - Throws: `PostgresError` when the column cannot be read.
    public func scan(_ url: PostgresURL, _ request: PostgresTableLocation.Request,
                     progress: ((ScanProgress) -> Void)? = nil) throws(PostgresError) -> PostgresScanReport {
        guard options.batchSize >= 1 else { throw PostgresError(.invalidRequest, "--batch must be at least 1") }
        let start = DispatchTime.now().uptimeNanoseconds
        let connection = try PostgresConnection(url: url, options: .init(connectTimeout: options.connectTimeout, readOnly: true))
        let location = try PostgresTableLocation.locate(request, on: connection)
        let judge = AllowListJudge(allowList: options.allowList)
        let maximumExamples = options.maximumExamples
        let classifier = StoredValueClassifier(readOptions: options.readOptions, archiveDetail: .classes, memo: RepeatedValueMemo())
        var tally = ValueTally<PostgresKey>()
        let total = (location.estimatedRows ?? 0) / options.shard.count
        // Each slice of a batch is classified and counted on its own thread; the slices' tallies
        // are merged here in row order, so the report is the same however many threads there are.
        try processAll(PostgresBlobTable(connection: connection, location: location, shard: options.shard, target: nil, lockTimeout: nil),
                       placeholder: ValueTally<PostgresKey>()) { batch, range in
            var part = ValueTally<PostgresKey>()
            for index in range {
                part.record(Self.classify(batch.values[index], classifier), key: batch.keys[index], judge: judge, maximumExamples: maximumExamples)
            }
            return part
        } _: { _, parts in
            for part in parts { tally.merge(part, maximumExamples: maximumExamples) }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            progress?(ScanProgress(processed: tally.rowCount, total: max(total, tally.rowCount), elapsed: elapsed))
        }
        return PostgresScanReport(source: url.redacted, location: location, shard: options.shard, allowList: options.allowList,
                                  tally: tally, elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// How many rows each of `shards` parts of the keys still has to convert to `target` (into
    /// `into`, when given), read from the data itself in one pass.
    public func status(_ url: PostgresURL, _ request: PostgresTableLocation.Request, target: ConversionTarget,
                       renames: [KeyedArchiveClassRenamer.Rename] = [], into: String? = nil,
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
        let converter = ValueConverter(options: ConversionOptions(target: target, readOptions: options.readOptions, classRenames: renames))
        var report = PostgresStatusReport(source: url.redacted, location: location, target: target, into: write?.column,
                                          shards: (1...max(1, shards)).map { .init(shard: PostgresShard(uncheckedIndex: $0, count: max(1, shards))) },
                                          elapsed: 0)
        var processed = 0
        let total = location.estimatedRows ?? 0
        let table = PostgresBlobTable(connection: connection, location: location, shard: .all, target: write, lockTimeout: nil,
                                      shardsReported: max(1, shards))
        let classifier = StoredValueClassifier(readOptions: options.readOptions, archiveDetail: .kind, memo: RepeatedValueMemo())
        try processAll(table, placeholder: [ValueDisposition]()) { batch, range in
            range.map { index -> ValueDisposition in
                if case .done = batch.values[index] { return .done }
                return converter.disposition(of: Self.classify(batch.values[index], classifier))
            }
        } _: { batch, parts in
            for (index, disposition) in parts.joined().enumerated() {
                let shard = batch.shards.indices.contains(index) ? batch.shards[index] : 0
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

    /// What a stored value is.
    static func classify(_ value: KeyedBlobValue, _ classifier: StoredValueClassifier) -> StoredValue {
        switch value {
        case .null, .done: StoredValue(kind: .null)
        case .number: StoredValue(kind: .number)
        case .bytes(let data): classifier.classify(data)
        case .text(let data): classifier.classify(data, isText: true)
        }
    }

    /// Reads every batch of `table`, has `slice` work on consecutive slices of it on several
    /// threads while the next batch is read, and hands the slices' results to `body` in order.
    func processAll<Part>(_ table: PostgresBlobTable, placeholder: Part,
                          _ slice: @escaping @Sendable (PostgresRowBatch, Range<Int>) -> Part,
                          _ body: (PostgresRowBatch, [Part]) -> Void) throws(PostgresError) {
        let parallelism = options.parallelism, stackSize = options.workerStackSize
        nonisolated(unsafe) let placeholder = placeholder
        let work: @Sendable (PostgresRowBatch) -> [Part] = { batch in
            ParallelBatch.slices(count: batch.count, parallelism: parallelism, stackSize: stackSize, placeholder: placeholder) { range in
                slice(batch, range)
            }
        }
        var lane = PostgresLane(table: table)
        var current = try lane.readNext(limit: options.batchSize)
        var working = current.map { Background(batch: $0, work) }
        while let batch = current, let job = working {
            let next = try lane.readNext(limit: options.batchSize)
            let parts = job.wait()
            working = next.map { Background(batch: $0, work) }
            body(batch, parts)
            current = next
        }
    }

    /// A batch being worked on by other threads.
    final class Background<Part>: @unchecked Sendable {
        let group = DispatchGroup()
        // Written once by the worker before `leave`, read only after `wait`.
        var parts: [Part] = []

        init(batch: PostgresRowBatch, _ work: @escaping @Sendable (PostgresRowBatch) -> [Part]) {
            group.enter()
            DispatchQueue.global().async { [self] in
                parts = work(batch)
                group.leave()
            }
        }

        func wait() -> [Part] {
            group.wait()
            return parts
        }
    }
}
