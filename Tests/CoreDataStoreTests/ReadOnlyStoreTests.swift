import CoreDataStore
import Foundation
import GRDB
import Testing

/// `StoreConnection.openForReading`, the read path every read-only verb is built on.
@Suite struct ReadOnlyStoreTests {
    /// Every file of a folder with its bytes and modification time (the folder's own time is
    /// checked by the CLI tests).
    static func state(_ folder: String) throws -> [String: (Data, Int, Int)] {
        var out: [String: (Data, Int, Int)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            var info = stat()
            stat(folder + "/" + name, &info)
            guard info.st_mode & S_IFMT == S_IFREG else { continue }
            out[name] = (try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)), info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
        }
        return out
    }

    /// The private folders `openForReading` makes in TMPDIR.
    static func privateCopies() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("archivist-store-") && !$0.hasPrefix("archivist-store-tests") })
    }

    static func same(_ a: [String: (Data, Int, Int)], _ b: [String: (Data, Int, Int)]) -> Bool {
        a.count == b.count && a.allSatisfy { name, value in b[name].map { $0 == value } ?? false }
    }

    @Test func aStoreWithoutPendingJournalIsReadInPlace() throws {
        let store = try TemporaryStore(rows: 12)
        let before = try Self.state(store.directory.path)
        let reader = try StoreConnection.openForReading(store.path)
        #expect(reader.method == .inPlace)
        let count = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZBOWTIE") }
        #expect(count == 12)
        reader.close()
        #expect(Self.same(before, try Self.state(store.directory.path)))
    }

    @Test func aStoreWithRowsInItsWALIsReadThroughAPrivateCopyThatIsRemoved() throws {
        let store = try TemporaryStore(rows: 5)
        // Rows added and left in the WAL: the copy is taken while this writer holds it open.
        let writer = try DatabaseQueue(path: store.path)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "UPDATE ZBOWTIE SET ZNAME = 'changed in the WAL' WHERE Z_PK = 1")
        }
        let evidence = store.directory.appendingPathComponent("evidence").path
        try FileManager.default.createDirectory(atPath: evidence, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: evidence + "/BowTies.sqlite" + suffix)
        }
        try writer.close()
        let before = try Self.state(evidence)
        let copiesBefore = try Self.privateCopies()
        let reader = try StoreConnection.openForReading(evidence + "/BowTies.sqlite")
        guard case .privateCopy(let bytes) = reader.method else {
            Issue.record("read in place: the WAL's rows would be missed")
            return
        }
        #expect(bytes > 0)
        let name = try reader.read { db in try String.fetchOne(db, sql: "SELECT ZNAME FROM ZBOWTIE WHERE Z_PK = 1") }
        #expect(name == "changed in the WAL")
        let copy = try Self.privateCopies().subtracting(copiesBefore)
        #expect(copy.count == 1, "one private folder while the store is open")
        reader.close()
        #expect(try Self.privateCopies().isDisjoint(with: copy), "the private copy is removed on close")
        #expect(Self.same(before, try Self.state(evidence)))
    }

    @Test func aPathWithCharactersAURIReservesIsStillReadInPlace() throws {
        let store = try TemporaryStore(rows: 3, name: "My Store #1 ?100%.sqlite")
        let reader = try StoreConnection.openForReading(store.path)
        defer { reader.close() }
        #expect(reader.method == .inPlace, "the immutable URI escapes space, #, ? and %")
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZBOWTIE") } == 3)
    }

    @Test func aReaderCannotWrite() throws {
        let store = try TemporaryStore(rows: 2)
        let reader = try StoreConnection.openForReading(store.path)
        defer { reader.close() }
        #expect(throws: StoreError.self) {
            try reader.read { db in try db.execute(sql: "DELETE FROM ZBOWTIE") }
        }
    }

    @Test func aFileThatIsNoDatabaseIsNamed() throws {
        let store = try TemporaryStore(rows: 1)
        let png = store.directory.appendingPathComponent("photo.png").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: URL(fileURLWithPath: png))
        #expect {
            _ = try StoreConnection.openForReading(png)
        } throws: { error in
            (error as? StoreError)?.message == "not an SQLite database: PNG image"
        }
    }

    /// The real stores of the shared corpus, opened through the safe path: they read, and not
    /// a byte or a time of theirs changes.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: ReadOnlyStoreTests.corpusStores), "needs ../shared/corpus/stores"))
    func theCorpusStoresReadAndStayAsTheyWere() throws {
        let before = try Self.state(Self.corpusStores)
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.corpusStores) where name.hasSuffix(".sqlite") {
            let reader = try StoreConnection.openForReading(Self.corpusStores + "/" + name)
            let tables = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") }
            #expect((tables ?? 0) > 0, "\(name)")
            reader.close()
        }
        #expect(Self.same(before, try Self.state(Self.corpusStores)))
    }

    static let corpusStores = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/stores").path
}
