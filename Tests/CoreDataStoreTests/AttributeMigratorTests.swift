import ArchivePayload
import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
import PropertyList
import Testing

@Suite struct CoreDataStoreAttributeMigratorTests {
    static func options(_ target: MigrationOptions.Target = .json, dryRun: Bool = false, backup: MigrationOptions.Backup = .none,
                        batchSize: Int = 5_000) -> MigrationOptions {
        MigrationOptions(target: target, allowList: .transformerDefault(adding: ["UIColor"]), dryRun: dryRun, backup: backup, batchSize: batchSize)
    }

    @Test func migratingTintColorToJSONGivesValuesJSONDecoderReadsAsColors() throws {
        let store = try TemporaryStore(rows: 120)
        defer { store.remove() }
        let result = try AttributeMigrator(options: Self.options()).migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.converted == 108)
        #expect(result.skipped == [.null: 12])
        #expect(result.failedCount == 0)
        for (pk, value, _) in try store.tintColors() {
            guard let expected = store.fixture.tintColor(row: Int(pk)) else {
                #expect(value == nil)
                continue
            }
            let color = try JSONDecoder().decode(Color.self, from: try #require(value))
            #expect(color.matches(expected), "Z_PK \(pk): \(color) is not \(expected)")
        }
    }

    @Test func aStoreWhereEveryTintIsItsOwnMigratesEachRowToItsOwnColor() throws {
        // 3,000 distinct colors: nothing for the memo to find again; each row read in place.
        let store = try TemporaryStore(rows: 3_000) { $0.distinctColors = true; $0.nullTintColorEvery = 0 }
        defer { store.remove() }
        let result = try AttributeMigrator(options: Self.options(batchSize: 700)).migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.converted == 3_000)
        #expect(result.failedCount == 0)
        var seen = Set<String>()
        for (pk, value, _) in try store.tintColors() {
            let bytes = try #require(value)
            let color = try JSONDecoder().decode(Color.self, from: bytes)
            let expected = try #require(store.fixture.tintColor(row: Int(pk)))
            #expect(color.matches(expected), "Z_PK \(pk): \(color) is not \(expected)")
            seen.insert(String(decoding: bytes, as: UTF8.self))
        }
        #expect(seen.count == 3_000)
    }

    @Test(arguments: [MigrationOptions.Target.propertyList, .xml])
    func migratingToAPropertyListGivesValuesPropertyListDecoderReads(target: MigrationOptions.Target) throws {
        let store = try TemporaryStore(rows: 25)
        defer { store.remove() }
        let result = try AttributeMigrator(options: Self.options(target)).migrate(path: store.path, attribute: "bowtie.TINTCOLOR")
        #expect(result.converted == 23)
        for (pk, value, _) in try store.tintColors() {
            guard let expected = store.fixture.tintColor(row: Int(pk)), let value else { continue }
            let color = try PropertyListDecoder().decode(Color.self, from: value)
            #expect(color.matches(expected))
            #expect(value.starts(with: Array((target == .xml ? "<?xml" : "bplist").utf8)))
        }
    }

    @Test func aDryRunWritesNothingAndReportsWhatItWouldDo() throws {
        let store = try TemporaryStore(rows: 50)
        defer { store.remove() }
        let before = try store.bytes()
        let result = try AttributeMigrator(options: Self.options(dryRun: true, backup: .besideStore)).migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.dryRun)
        #expect(result.converted == 45)
        #expect(result.backupPath == nil)
        #expect(try store.bytes() == before)
        #expect(try store.tintColors().allSatisfy { $0.value.map { $0.starts(with: Array("bplist".utf8)) } ?? true })
    }

    @Test func aCorruptBlobAmongGoodOnesIsLeftUntouchedAndTheRestMigrate() throws {
        let store = try TemporaryStore(rows: 30)
        defer { store.remove() }
        // A binary plist header followed by garbage: what a torn write or a bad sync leaves.
        let corrupt = Data(Array("bplist00".utf8) + [0xD1, 0x01, 0x02, 0xFF, 0xFF, 0x00, 0x13])
        try store.inject(corrupt, intoRow: 7)
        let result = try AttributeMigrator(options: Self.options()).migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.failedCount == 1)
        let failure = try #require(result.failures.first)
        #expect(failure.primaryKey == 7)
        #expect(failure.reason == .unreadable)
        #expect(result.converted == 26)
        let rows = try store.tintColors()
        let seventh = try #require(rows.first { $0.pk == 7 })
        #expect(seventh.value == corrupt)
        #expect(seventh.opt == 1)
        for row in rows where row.pk != 7 && row.value != nil {
            #expect(row.value?.first == UInt8(ascii: "{"))
        }
    }

    @Test func aSecondRunSkipsEverythingTheFirstConverted() throws {
        let store = try TemporaryStore(rows: 40)
        defer { store.remove() }
        let migrator = AttributeMigrator(options: Self.options())
        let first = try migrator.migrate(path: store.path, attribute: "BowTie.tintColor")
        let afterFirst = try store.tintColors()
        let second = try migrator.migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(first.converted == 36)
        #expect(second.converted == 0)
        #expect(second.skipped == [.null: 4, .alreadyConverted: 36])
        #expect(second.failedCount == 0)
        #expect(try store.tintColors().map(\.opt) == afterFirst.map(\.opt))
    }

    @Test func zOptIsBumpedOnChangedRowsOnly() throws {
        let store = try TemporaryStore(rows: 20)
        defer { store.remove() }
        _ = try AttributeMigrator(options: Self.options()).migrate(path: store.path, attribute: "BowTie.tintColor")
        for row in try store.tintColors() {
            #expect(row.opt == (row.value == nil ? 1 : 2), "Z_PK \(row.pk)")
        }
    }

    @Test func refusedRowsAreListedWithTheClassToAllow() throws {
        let store = try TemporaryStore(rows: 10)
        defer { store.remove() }
        let options = MigrationOptions(target: .json, backup: .none)
        let result = try AttributeMigrator(options: options).migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.converted == 0)
        #expect(result.failedByReason == [.refused: 9])
        #expect(result.failures.map(\.primaryKey) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(result.failures.first?.message.contains("UIColor") == true)
        #expect(result.suggestedAdditions == ["UIColor"])
    }

    @Test func theBackupIsAWholeCopyOfTheStoreBeforeTheFirstWrite() throws {
        let store = try TemporaryStore(rows: 30)
        defer { store.remove() }
        let backup = store.directory.appendingPathComponent("before.sqlite").path
        let result = try AttributeMigrator(options: Self.options(backup: .path(backup))).migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.backupPath == backup)
        let queue = try DatabaseQueue(path: backup, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        let archives = try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZBOWTIE WHERE substr(ZTINTCOLOR, 1, 6) = CAST('bplist' AS BLOB)")
        }
        #expect(archives == 27)
        // A backup path that exists is never overwritten, and then nothing is written.
        let again = AttributeMigrator(options: Self.options(backup: .path(backup)))
        #expect(throws: StoreError.self) { try again.migrate(path: store.path, attribute: "BowTie.tintColor") }
    }

    @Test func theDefaultBackupIsBesideTheStore() throws {
        let store = try TemporaryStore(rows: 5)
        defer { store.remove() }
        let result = try AttributeMigrator(options: Self.options(backup: .besideStore)).migrate(path: store.path, attribute: "BowTie.tintColor")
        let backup = try #require(result.backupPath)
        #expect(backup.hasPrefix(store.path + ".archivist-backup-"))
        #expect(FileManager.default.fileExists(atPath: backup))
    }

    @Test func progressIsReportedAfterEveryBatch() throws {
        let store = try TemporaryStore(rows: 100)
        defer { store.remove() }
        var seen: [MigrationProgress] = []
        let result = try AttributeMigrator(options: Self.options(batchSize: 30)).migrate(path: store.path, attribute: "BowTie.tintColor") {
            seen.append($0)
        }
        #expect(result.batches == 4)
        #expect(seen.map(\.processed) == [30, 60, 90, 100])
        #expect(seen.allSatisfy { $0.total == 100 })
    }

    @Test func aRowAnotherWriterChangesMidMigrationIsLeftAsThatWriterLeftIt() throws {
        let store = try TemporaryStore(rows: 60)
        defer { store.remove() }
        // Batch 2 (rows 21–40) is read before batch 1 is written; change row 25 in between,
        // the way a Core Data save would: new value, Z_OPT bumped.
        let theirs = Data(#"{"red":1,"green":1,"blue":1,"alpha":1}"#.utf8)
        var changed = false
        let result = try AttributeMigrator(options: Self.options(batchSize: 20)).migrate(path: store.path, attribute: "BowTie.tintColor") { _ in
            guard !changed else { return }
            changed = true
            let other = try? DatabaseQueue(path: store.path)
            try? other?.write { db in
                try db.execute(sql: "UPDATE ZBOWTIE SET ZTINTCOLOR = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = 25", arguments: [theirs])
            }
            try? other?.close()
        }
        // Skipped, not failed: the other writer's value is the newer one, and a rerun converts
        // it if it still needs it.
        #expect(result.skipped[.changedMeanwhile] == 1)
        #expect(result.changedKeys == [25])
        #expect(!result.hasFailures)
        let row = try #require(try store.tintColors().first { $0.pk == 25 })
        #expect(row.value == theirs)
        #expect(row.opt == 2)
    }

    @Test func externalReferencesAndImagesAreNotMistakenForArchives() throws {
        let store = try TemporaryStore(rows: 30)
        defer { store.remove() }
        let result = try AttributeMigrator(options: Self.options()).migrate(path: store.path, attribute: "BowTie.photoData")
        #expect(result.converted == 0)
        #expect(result.failedByReason == [.externalReference: 2, .notAnArchive: 8])
        #expect(result.failures.first?.message.contains("_EXTERNAL_DATA/") == true)
    }

    @Test func anUnknownAttributeNamesWhatTheEntityHas() throws {
        let store = try TemporaryStore(rows: 2)
        defer { store.remove() }
        let error = try #require(throws: StoreError.self) {
            try AttributeMigrator(options: Self.options()).migrate(path: store.path, attribute: "BowTie.colour")
        }
        #expect(error.code == .notFound)
        #expect(error.description.contains("tintcolor"))
    }

    @Test func anArchiveInsideTheInlineExternalStorageHeaderKeepsTheHeader() throws {
        let store = try TemporaryStore(rows: 3)
        defer { store.remove() }
        var builder = KeyedArchiveBuilder()
        let color = builder.uiColor(red: 1, green: 0, blue: 0, alpha: 1)
        let archive = try KeyedArchiveWriter().write(builder.archive(root: color))
        try store.inject(ExternalBinaryStorage.framedInline(archive), intoRow: 1)
        _ = try AttributeMigrator(options: Self.options()).migrate(path: store.path, attribute: "BowTie.tintColor")
        let value = try #require(try store.tintColors().first?.value)
        #expect(value.first == ExternalBinaryStorage.inlineMarker)
        #expect(try JSONDecoder().decode(Color.self, from: value.dropFirst()) == Color(red: 1, green: 0, blue: 0, alpha: 1))
    }
}
