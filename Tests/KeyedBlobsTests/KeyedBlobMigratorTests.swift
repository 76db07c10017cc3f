import ArchivePayload
import Foundation
import KeyedArchive
@testable import KeyedBlobs
import PropertyList
import Synchronization
import Testing

/// The engine on an in-memory table of keyed blobs, where every event can be staged.
@Suite struct KeyedBlobMigratorTests {
    /// Rows in a dictionary; writes guarded by the value read, as every real table does.
    final class MemoryTable: KeyedBlobTable, @unchecked Sendable {
        struct Batch: KeyedBlobBatch {
            var keys: [Int]
            var values: [KeyedBlobValue]
        }

        var rows: [Int: Data?]
        var cursor = 0
        /// Called before each write, to change rows behind the engine's back.
        var beforeWrite: ((MemoryTable, Int) -> Void)?
        /// Writes that fail as a lock timeout would, before succeeding.
        var lockedWrites = 0
        /// Keys whose new value the "database" refuses.
        var refusedKeys: Set<Int> = []
        var writes = 0
        let lane: Int
        let lanes: Int

        init(rows: [Int: Data?], lane: Int = 0, lanes: Int = 1) {
            self.rows = rows
            self.lane = lane
            self.lanes = lanes
        }

        struct LockTimeout: Error {}

        func value(_ data: Data?) -> KeyedBlobValue { data.map { .bytes($0) } ?? .null }

        func readNext(limit: Int) throws(LockTimeout) -> Batch? {
            let keys = rows.keys.filter { $0 > cursor && $0 % lanes == lane }.sorted().prefix(limit)
            guard let last = keys.last else { return nil }
            cursor = last
            return Batch(keys: Array(keys), values: keys.map { value(rows[$0] ?? nil) })
        }

        func write(_ values: [(index: Int, bytes: Data)], of batch: Batch) throws(LockTimeout) -> KeyedBlobWrite {
            writes += 1
            beforeWrite?(self, writes)
            if lockedWrites > 0 {
                lockedWrites -= 1
                throw LockTimeout()
            }
            var result = KeyedBlobWrite(written: [])
            for (index, bytes) in values {
                let key = batch.keys[index]
                guard case .bytes(let old) = batch.values[index], rows[key] == old else { continue }
                if refusedKeys.contains(key) {
                    result.rejected[index] = "a check constraint"
                    continue
                }
                rows[key] = bytes
                result.written.insert(index)
            }
            return result
        }

        func reread(_ batch: Batch) throws(LockTimeout) -> Batch {
            Batch(keys: batch.keys, values: batch.keys.map { value(rows[$0] ?? nil) })
        }

        func isRetryable(_ error: LockTimeout) -> Bool { true }
    }

    static let color: Data = {
        var builder = KeyedArchiveBuilder()
        let root = builder.uiColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        return (try? KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)) ?? Data()
    }()

    static func migrator(batch: Int = 10, dryRun: Bool = false, copies: Bool = false) -> KeyedBlobMigrator {
        var options = KeyedBlobMigrationOptions(conversion: ConversionOptions(target: .json, allowList: .transformerDefault(adding: ["UIColor"])),
                                                dryRun: dryRun, batchSize: batch, parallelism: 2, retryLimit: 2, pausePollInterval: 0)
        options.copiesValuesInTargetFormat = copies
        return KeyedBlobMigrator(options: options)
    }

    static func table(_ count: Int) -> MemoryTable {
        MemoryTable(rows: Dictionary(uniqueKeysWithValues: (1...count).map { ($0, $0 % 10 == 0 ? nil : color) }))
    }

    @Test func everyArchiveIsConvertedOnceAndARerunFindsNothing() throws {
        var table = Self.table(95)
        let tally = try Self.migrator().migrate(&table, total: 95)
        #expect(tally.rows == 95)
        #expect(tally.converted == 86)
        #expect(tally.skipped == [.null: 9])
        #expect(tally.batches == 10)
        table.cursor = 0
        let again = try Self.migrator().migrate(&table, total: 95)
        #expect(again.converted == 0)
        #expect(again.skipped == [.null: 9, .alreadyConverted: 86])
    }

    @Test func aRowAnotherWriterChangesBeforeTheWriteIsSkippedAndNamed() throws {
        var table = Self.table(30)
        let theirs = Data(#"{"mine":true}"#.utf8)
        table.beforeWrite = { table, write in if write == 2 { table.rows[15] = theirs } }
        let tally = try Self.migrator().migrate(&table, total: 30)
        #expect(tally.skipped[.changedMeanwhile] == 1)
        #expect(tally.changedKeys == [15])
        #expect(table.rows[15] == theirs)
        #expect(!tally.hasFailures)
    }

    @Test func aValueTheDatabaseRefusesFailsItsRowAloneWithTheReason() throws {
        var table = Self.table(20)
        table.refusedKeys = [7]
        let tally = try Self.migrator().migrate(&table, total: 20)
        #expect(tally.failedByReason == [.rejected: 1])
        #expect(tally.failures.first?.key == 7)
        #expect(tally.failures.first?.message.contains("a check constraint") == true)
        #expect(tally.converted == 17)
        #expect(table.rows[7] == Self.color)
    }

    @Test func aBatchThatTimesOutOnItsLocksIsRetriedAfterTheOthers() throws {
        var table = Self.table(30)
        table.lockedWrites = 1
        let tally = try Self.migrator().migrate(&table, total: 30)
        #expect(tally.retriedBatches == 1)
        #expect(tally.converted == 27)
        #expect(tally.batches == 3)
    }

    @Test func rowsStillLockedAfterEveryRetryAreReportedLocked() throws {
        var table = Self.table(10)
        table.lockedWrites = 100
        let tally = try Self.migrator().migrate(&table, total: 10)
        #expect(tally.failedByReason == [.locked: 9])
        #expect(tally.converted == 0)
        #expect(table.rows.values.allSatisfy { $0 == nil || $0 == Self.color })
    }

    @Test func aDryRunCountsEverythingAndWritesNothing() throws {
        var table = Self.table(25)
        let tally = try Self.migrator(dryRun: true).migrate(&table, total: 25)
        #expect(tally.converted == 23)
        #expect(table.writes == 0)
    }

    @Test func valuesAlreadyInTheTargetFormatAreCopiedWhenTheTableWritesElsewhere() throws {
        var table = Self.table(10)
        table.rows[3] = Data(#"{"red":1}"#.utf8)
        let tally = try Self.migrator(copies: true).migrate(&table, total: 10)
        #expect(tally.copied == 1)
        #expect(tally.converted == 8)
    }

    @Test func lanesOnTheirOwnThreadsSplitTheKeysAndTheirTalliesAdd() throws {
        let shared = Self.table(1_000).rows
        let seen = Mutex<Int>(0)
        let tally = try Self.migrator(batch: 50).migrate(lanes: 3, total: 1_000, makeTable: { lane throws(MemoryTable.LockTimeout) in
            seen.withLock { $0 += 1 }
            // Each lane sees every row but reads only keys ≡ lane (mod 3).
            return MemoryTable(rows: shared, lane: lane, lanes: 3)
        })
        #expect(seen.withLock { $0 } == 3)
        #expect(tally.rows == 1_000)
        #expect(tally.converted == 900)
        #expect(tally.skipped == [.null: 100])
    }
}
