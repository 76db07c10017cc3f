import ArchivePayload
import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
import PropertyList
import Testing

@Suite struct CoreDataStoreScannerTests {
    @Test func aScanOnFourThreadsReportsExactlyWhatAScanOnOneDoes() throws {
        // 5,000 rows: more than two batches, each split between the threads.
        let store = try TemporaryStore(rows: 5_000)
        defer { store.remove() }
        let one = try StoreScanner(options: ScanOptions(parallelism: 1)).scan(path: store.path)
        let four = try StoreScanner(options: ScanOptions(parallelism: 4)).scan(path: store.path)
        #expect(one.tables.first?.rowCount == 5_000)
        #expect(one.jsonValue == four.jsonValue)
    }

    @Test func aStoreWhereNoValueRepeatsIsCountedRowByRowAsASweepSeesIt() throws {
        // Every tint and photo its own: the memo finds nothing, the colors are read in place
        // and counted on each thread; a sweep's visitor sees each decoded value on this one.
        let store = try TemporaryStore(rows: 5_000) { $0.distinctColors = true; $0.nullTintColorEvery = 0 }
        defer { store.remove() }
        let one = try StoreScanner(options: ScanOptions(parallelism: 1)).scan(path: store.path)
        let two = try StoreScanner(options: ScanOptions(parallelism: 2)).scan(path: store.path)
        var visited = 0
        let swept = try StoreScanner(options: ScanOptions(parallelism: 2)).scan(path: store.path, visit: { location, _ in
            if location.column == "ZTINTCOLOR" { visited += 1 }
        })
        #expect(one.jsonValue == two.jsonValue)
        #expect(one.jsonValue == swept.jsonValue)
        #expect(visited == 5_000)
        let tint = try #require(one.tables.first?.columns.first { $0.column.name == "ZTINTCOLOR" })
        #expect(tint.tally.kinds == [.keyedArchiveBinary: 5_000])
        #expect(tint.tally.classes["UIColor"] == 5_000)
    }

    @Test func progressIsReportedPerBatchAndEndsAtEveryRowOfEveryTable() throws {
        let store = try TemporaryStore(rows: 5_000)
        defer { store.remove() }
        var reports: [ScanProgress] = []
        let report = try StoreScanner().scan(path: store.path) { reports.append($0) }
        let rows = report.tables.map(\.rowCount).reduce(0, +)
        #expect(reports.count >= 3)
        #expect(reports.map(\.processed) == reports.map(\.processed).sorted())
        #expect(reports.last?.processed == rows)
        #expect(reports.allSatisfy { $0.total == rows })
    }

    @Test func theScanReportsWhatEveryBlobColumnOfTheBowTieStoreHolds() throws {
        let store = try TemporaryStore(rows: 100)
        defer { store.remove() }
        let report = try StoreScanner().scan(path: store.path)
        #expect(report.isCoreData)
        let table = try #require(report.tables.first { $0.name == "ZBOWTIE" })
        #expect(table.rowCount == 100)
        #expect(table.entityNames == ["BowTie"])
        #expect(table.columns.map(\.displayName) == ["BowTie.id", "BowTie.photodata", "BowTie.tintcolor"])
        #expect(table.plainColumns.map(\.name) == ["ZISFAVORITE", "ZTIMESWORN", "ZLASTWORN", "ZRATING", "ZNAME", "ZSEARCHKEY", "ZURL"])

        let tint = try #require(table.columns.first { $0.column.name == "ZTINTCOLOR" })
        #expect(tint.tally.kinds == [.keyedArchiveBinary: 90, .null: 10])
        #expect(tint.tally.classes == ["UIColor": 90])
        // The transformer's default list does not hold UIColor: every archive is refused.
        #expect(tint.tally.accepted == 0)
        #expect(tint.tally.refused == 90)
        #expect(tint.tally.refusedClasses == ["UIColor": 90])
        #expect(tint.tally.suggestedAdditions == ["UIColor"])
        #expect(tint.swiftSnippet(allowList: .transformerDefault)?.contains("super.allowedTopLevelClasses + [UIColor.self]") == true)

        let photo = try #require(table.columns.first { $0.column.name == "ZPHOTODATA" })
        #expect(photo.tally.kinds[.image] == 31)
        #expect(photo.tally.kinds[.externalReference] == 2)
        #expect(photo.tally.kinds[.null] == 67)
        #expect(photo.tally.inlineFramed == 31)
        #expect(photo.tally.formats == ["PNG image": 31])
        #expect(photo.tally.missingExternalFiles == 0)

        let id = try #require(table.columns.first { $0.column.name == "ZID" })
        #expect(id.tally.kinds == [.other: 100])
        #expect(id.tally.formats == ["16 bytes (a UUID's size)": 100])
    }

    @Test func allowingUIColorAcceptsEveryTintColor() throws {
        let store = try TemporaryStore(rows: 40)
        defer { store.remove() }
        let report = try StoreScanner(options: ScanOptions(allowList: .transformerDefault(adding: ["UIColor"]))).scan(path: store.path)
        let tint = try #require(report.columns.first { $0.column.name == "ZTINTCOLOR" })
        #expect(tint.tally.accepted == 36)
        #expect(tint.tally.refused == 0)
        #expect(tint.tally.suggestedAdditions.isEmpty)
    }

    @Test func aDamagedArchiveIsReportedUnreadableWithItsKey() throws {
        let store = try TemporaryStore(rows: 12) { $0.corruptTintColorRows = [4] }
        defer { store.remove() }
        let report = try StoreScanner().scan(path: store.path)
        let tint = try #require(report.columns.first { $0.column.name == "ZTINTCOLOR" })
        #expect(tint.tally.kinds[.unreadable] == 1)
        #expect(tint.tally.examples.contains { $0.key == 4 && $0.kind == .unreadable })
    }

    @Test func aMissingExternalFileIsCounted() throws {
        let store = try TemporaryStore(rows: 9)
        defer { store.remove() }
        let folder = ExternalBinaryStorage.directory(store: URL(fileURLWithPath: store.path))
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).prefix(1) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        }
        let report = try StoreScanner().scan(path: store.path)
        let photo = try #require(report.columns.first { $0.column.name == "ZPHOTODATA" })
        #expect(photo.tally.missingExternalFiles == 1)
    }

    @Test func aPlainSQLiteFileIsScannedByTableAndColumn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.db").path
        var builder = KeyedArchiveBuilder()
        let tags = builder.array([builder.string("red"), builder.string("blue")])
        let archive = try KeyedArchiveWriter().write(builder.archive(root: tags))
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body BLOB, meta TEXT, title TEXT)")
            try db.execute(sql: "INSERT INTO notes (body, meta, title) VALUES (?, '{\"pinned\":true}', 'one')", arguments: [archive])
            try db.execute(sql: "INSERT INTO notes (body, meta, title) VALUES (NULL, NULL, 'two')")
        }
        try queue.close()
        let report = try StoreScanner().scan(path: path)
        #expect(!report.isCoreData)
        let table = try #require(report.tables.first)
        #expect(table.columns.map(\.displayName) == ["notes.body", "notes.meta"])
        #expect(table.columns.first?.tally.kinds == [.keyedArchiveBinary: 1, .null: 1])
        #expect(table.columns.first?.tally.accepted == 1)
        #expect(table.columns.last?.tally.kinds == [.json: 1, .null: 1])
        #expect(table.plainColumns.map(\.name) == ["id", "title"])
    }

    @Test func aFileThatIsNotSQLiteIsRefusedWithoutBeingCreated() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-nope-\(UUID().uuidString).sqlite").path
        #expect(throws: StoreError.self) { try StoreScanner().scan(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: StoreError.self) { try StoreScanner().scan(path: path) }
        #expect(error.code == .cannotOpen)
    }
}
