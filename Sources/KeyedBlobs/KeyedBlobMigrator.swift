import Foundation
import KeyedArchive
import Synchronization

/// The migration engine: reads a table of keyed blobs in batches, converts each value
/// (`ValueConverter`: allow-list, payload, verification), writes the new values back through
/// the table, and counts what became of every row.
///
/// - Each batch is one transaction, in key order; a kill at any moment leaves every row old or
///   new, and values already in the target format are skipped, so a rerun finishes the work
///   and converts nothing twice.
/// - A row is written only if it still holds what was read (the table guards each update); a
///   row another writer changed meanwhile is left as that writer left it and counted as
///   skipped (`changedMeanwhile`).
/// - While one batch is written, the next is read and converted on other threads.
/// - A batch whose row locks are not granted in time (`KeyedBlobTable.isRetryable`) is rolled
///   back and tried again after the others; `maximumRate`, `pauseBetweenBatches` and the
///   table's `pauseReason` keep it gentle on a busy server.
/// - Several lanes (one table each: a connection, a part of the keys) may run at once.
public struct KeyedBlobMigrator: Sendable {
    public let options: KeyedBlobMigrationOptions
    let converter: ValueConverter

    public init(options: KeyedBlobMigrationOptions) {
        self.options = options
        converter = ValueConverter(options: options.conversion)
    }

    /// Migrates `table` on this thread.
    ///
    /// - Parameters:
    ///   - table: the table to migrate, read and written through its interface.
    ///   - total: rows expected, for progress (an estimate is fine).
    ///   - progress: called after each batch, on this thread.
    /// - Throws: what the table throws, other than the retryable failures it names.
    public func migrate<Table: KeyedBlobTable>(_ table: inout Table, total: Int,
                                               progress: ((MigrationProgress) -> Void)? = nil) throws(Table.Failure) -> KeyedBlobTally<Table.Key> {
        let start = DispatchTime.now().uptimeNanoseconds
        let limiter = options.maximumRate.map { RateLimiter(rowsPerSecond: $0) }
        var tally = try runLane(&table, limiter: limiter, report: { tally, paused in
            progress?(tally.progress(total: total, elapsed: Self.seconds(since: start), pausedBecause: paused))
        }, shouldStop: { false })
        tally.elapsed = Self.seconds(since: start)
        return tally
    }

    /// Migrates with `lanes` lanes at once, each on a thread of its own with the table
    /// `makeTable(lane)` gives it there (lane from 0); the tallies are merged.
    ///
    /// - Parameters:
    ///   - lanes: how many lanes run at once.
    ///   - total: rows expected, for progress (an estimate is fine).
    ///   - makeTable: the table a lane works on, made on that lane's thread.
    ///   - progress: called on this thread, a few times a second, with the lanes' sum.
    /// - Throws: the first failure of any lane; the other lanes stop after their batch.
    public func migrate<Table: KeyedBlobTable>(lanes: Int, total: Int,
                                               makeTable: @escaping @Sendable (Int) throws(Table.Failure) -> Table,
                                               progress: ((MigrationProgress) -> Void)? = nil) throws(Table.Failure) -> KeyedBlobTally<Table.Key> {
        let start = DispatchTime.now().uptimeNanoseconds
        let limiter = options.maximumRate.map { RateLimiter(rowsPerSecond: $0) }
        let board = LaneBoard<Table.Key, Table.Failure>(lanes: max(1, lanes))
        for lane in 0..<board.lanes {
            let thread = Thread { [self] in
                do throws(Table.Failure) {
                    var table = try makeTable(lane)
                    let tally = try runLane(&table, limiter: limiter, report: { tally, paused in
                        board.update(lane: lane, tally: tally, paused: paused)
                    }, shouldStop: { board.shouldStop })
                    board.finish(lane: lane, tally: tally, error: nil)
                } catch {
                    board.finish(lane: lane, tally: nil, error: error)
                }
            }
            thread.start()
        }
        while true {
            _ = board.signal.wait(timeout: .now() + .milliseconds(250))
            let (tally, paused, finished) = board.snapshot(limit: options.maximumListedFailures)
            progress?(tally.progress(total: total, elapsed: Self.seconds(since: start), pausedBecause: paused))
            if finished { break }
        }
        if let error = board.firstError { throw error }
        var (tally, _, _) = board.snapshot(limit: options.maximumListedFailures)
        tally.elapsed = Self.seconds(since: start)
        return tally
    }

    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    // MARK: - One lane

    /// The pipeline of one lane: while this thread writes batch N, batch N + 1 is converted
    /// on others; then the batches that could not get their locks, again.
    func runLane<Table: KeyedBlobTable>(_ table: inout Table, limiter: RateLimiter?,
                                        report: (KeyedBlobTally<Table.Key>, String?) -> Void,
                                        shouldStop: () -> Bool) throws(Table.Failure) -> KeyedBlobTally<Table.Key> {
        var tally = KeyedBlobTally<Table.Key>()
        var deferred: [Table.Batch] = []
        var current = try table.readNext(limit: options.batchSize)
        var converting = current.map { startConverting($0.values) }
        while let batch = current, let conversion = converting {
            let next = shouldStop() ? nil : try table.readNext(limit: options.batchSize)
            let outcomes = conversion.wait()
            converting = next.map { startConverting($0.values) }
            if try !commit(batch, outcomes: outcomes, table: &table, limiter: limiter, tally: &tally, report: report) {
                deferred.append(batch)
            }
            report(tally, nil)
            current = next
        }
        // Batches rolled back for their locks: again, after a growing wait, with fresh rows.
        var round = 0
        while !deferred.isEmpty, !shouldStop() {
            round += 1
            let last = round > options.retryLimit
            if !last { sleep(seconds: min(5, 0.25 * Double(1 << min(round, 5)))) }
            var again: [Table.Batch] = []
            for batch in deferred {
                let fresh = try table.reread(batch)
                let outcomes = convert(fresh.values)
                if last {
                    record(fresh, outcomes: outcomes, copies: copies(fresh, outcomes), written: nil, lockedOut: true, into: &tally)
                } else if try !commit(fresh, outcomes: outcomes, table: &table, limiter: limiter, tally: &tally, report: report) {
                    again.append(fresh)
                }
                report(tally, nil)
            }
            deferred = again
        }
        return tally
    }

    /// Writes a batch's new values and counts its rows; false when the table asks for the
    /// batch to be tried again later (nothing of it was written or counted).
    func commit<Table: KeyedBlobTable>(_ batch: Table.Batch, outcomes: [ValueConverter.Outcome], table: inout Table,
                                       limiter: RateLimiter?, tally: inout KeyedBlobTally<Table.Key>,
                                       report: (KeyedBlobTally<Table.Key>, String?) -> Void) throws(Table.Failure) -> Bool {
        var values: [(index: Int, bytes: Data)] = []
        for (index, outcome) in outcomes.enumerated() {
            if case .converted(let bytes) = outcome { values.append((index, bytes)) }
        }
        let copies = copies(batch, outcomes)
        for index in copies.sorted() {
            switch batch.values[index] {
            case .bytes(let data), .text(let data): values.append((index, data))
            case .null, .number, .done: break
            }
        }
        if options.dryRun || values.isEmpty {
            record(batch, outcomes: outcomes, copies: copies, written: options.dryRun ? nil : KeyedBlobWrite(written: []), lockedOut: false,
                   into: &tally)
            tally.batches += 1
            return true
        }
        limiter?.admit(rows: batch.keys.count)
        while let reason = try table.pauseReason() {
            report(tally, reason)
            sleep(seconds: options.pausePollInterval)
            tally.pausedSeconds += options.pausePollInterval
        }
        let written: KeyedBlobWrite
        do {
            written = try table.write(values, of: batch)
        } catch {
            guard table.isRetryable(error) else { throw error }
            tally.retriedBatches += 1
            return false
        }
        record(batch, outcomes: outcomes, copies: copies, written: written, lockedOut: false, into: &tally)
        tally.batches += 1
        if options.pauseBetweenBatches > 0 { sleep(seconds: options.pauseBetweenBatches) }
        return true
    }

    /// The rows whose value is in the target format already and is copied as it is, when the
    /// table writes into another column (`copiesValuesInTargetFormat`).
    func copies<Batch: KeyedBlobBatch>(_ batch: Batch, _ outcomes: [ValueConverter.Outcome]) -> Set<Int> {
        guard options.copiesValuesInTargetFormat else { return [] }
        var copies = Set<Int>()
        for (index, outcome) in outcomes.enumerated() where outcome == .skipped(.alreadyConverted) {
            switch batch.values[index] {
            case .bytes, .text: copies.insert(index)
            case .null, .number, .done: break
            }
        }
        return copies
    }

    /// Counts a batch's outcomes. `written` is nil for a dry run (every conversion counts) and
    /// when `lockedOut` (every conversion failed for its locks).
    func record<Batch: KeyedBlobBatch>(_ batch: Batch, outcomes: [ValueConverter.Outcome], copies: Set<Int>, written: KeyedBlobWrite?,
                                       lockedOut: Bool, into tally: inout KeyedBlobTally<Batch.Key>) {
        let limit = options.maximumListedFailures
        func fail(_ key: Batch.Key, _ reason: MigrationFailureReason, _ message: String) {
            tally.failedByReason[reason, default: 0] += 1
            if tally.failures.count < limit { tally.failures.append(KeyedBlobFailure(key: key, reason: reason, message: message)) }
        }
        /// A row whose value was sent to be written (`verb` it, as `value`): failed for its locks or
        /// the database's refusal, skipped when it changed meanwhile, else counted as `done`.
        func settle(_ index: Int, _ key: Batch.Key, verb: String, value: String, done: WritableKeyPath<KeyedBlobTally<Batch.Key>, Int>) {
            if lockedOut {
                fail(key, .locked, "its row locks were not granted in time in \(options.retryLimit + 1) tries (--lock-timeout); run migrate again to \(verb) it")
            } else if let reason = written?.rejected[index] {
                fail(key, .rejected, "the database refused the \(value): \(reason)")
            } else if let written, !written.written.contains(index) {
                tally.skipped[.changedMeanwhile, default: 0] += 1
                if tally.changedKeys.count < limit { tally.changedKeys.append(key) }
            } else {
                tally[keyPath: done] += 1
            }
        }
        for (index, key) in batch.keys.enumerated() {
            if copies.contains(index) {
                settle(index, key, verb: "copy", value: "value", done: \.copied)
                continue
            }
            switch outcomes[index] {
            case .converted:
                settle(index, key, verb: "convert", value: "new value", done: \.converted)
            case .skipped(let reason):
                tally.skipped[reason, default: 0] += 1
            case .failed(let reason, let message, let suggested):
                fail(key, reason, message)
                for name in suggested { tally.suggestionCounts[name, default: 0] += 1 }
            }
        }
        tally.rows += batch.keys.count
    }

    // MARK: - Conversion

    /// The outcome of each value, on `options.parallelism` threads: conversion is pure and
    /// independent per value, while reads and writes stay on the lane's thread.
    func convert(_ values: [KeyedBlobValue]) -> [ValueConverter.Outcome] {
        let converter = self.converter
        return ParallelBatch.map(values, parallelism: options.parallelism, stackSize: options.workerStackSize,
                                 placeholder: .skipped(.null), makeState: { SmallArchiveReader() }) { reader, value in
            switch value {
            case .null: .skipped(.null)
            case .done: .skipped(.alreadyConverted)
            case .bytes(let data): converter.convert(data, reader: reader)
            case .text(let data): converter.convert(data, isText: true, reader: reader)
            case .number: converter.convert(StoredValue(kind: .number, decoding: nil))
            }
        }
    }

    func startConverting(_ values: [KeyedBlobValue]) -> Conversion {
        let conversion = Conversion()
        conversion.group.enter()
        DispatchQueue.global().async { [self] in
            conversion.outcomes = convert(values)
            conversion.group.leave()
        }
        return conversion
    }

    /// Outcomes being computed on other threads.
    final class Conversion: @unchecked Sendable {
        let group = DispatchGroup()
        // Written once by the worker before `leave`, read only after `wait`.
        var outcomes: [ValueConverter.Outcome] = []

        func wait() -> [ValueConverter.Outcome] {
            group.wait()
            return outcomes
        }
    }
}
