import CoreDataStore
import StoreFixtures
import Foundation
import GRDB
import Testing

@Suite struct CoreDataStoreBowTieFixtureTests {
    @Test func theFixtureHasTheTablesAndColumnsCoreDataWritesForBowTie() throws {
        let store = try TemporaryStore(rows: 20)
        defer { store.remove() }
        let queue = try store.open()
        defer { try? queue.close() }
        try queue.read { db in
            let columns = try db.columns(in: "ZBOWTIE").map { "\($0.name) \($0.type)" }
            #expect(columns == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZISFAVORITE INTEGER", "ZTIMESWORN INTEGER",
                                "ZLASTWORN TIMESTAMP", "ZRATING FLOAT", "ZNAME VARCHAR", "ZSEARCHKEY VARCHAR", "ZURL VARCHAR",
                                "ZID BLOB", "ZPHOTODATA BLOB", "ZTINTCOLOR BLOB"])
            let primaryKeys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY")
            #expect(primaryKeys.count == 1)
            #expect(primaryKeys.first?[1] as String? == "BowTie")
            #expect(primaryKeys.first?[3] as Int64? == 20)
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2)
            // A UUID attribute is its 16 bytes; a date is seconds since 2001 as a REAL.
            #expect(try Int.fetchOne(db, sql: "SELECT DISTINCT length(ZID) FROM ZBOWTIE") == 16)
            #expect(try String.fetchOne(db, sql: "SELECT DISTINCT typeof(ZLASTWORN) FROM ZBOWTIE") == "real")
        }
    }

    @Test func theMetadataPlistNamesTheStoreAndHashesTheModel() throws {
        let store = try TemporaryStore(rows: 3)
        defer { store.remove() }
        let schema = try StoreScanner().schema(path: store.path)
        #expect(schema.isCoreData)
        let metadata = try #require(schema.metadata)
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.storeUUID == store.fixture.storeUUID.uuidString)
        #expect(metadata.uuid == store.fixture.storeUUID.uuidString)
        #expect(metadata.version == 1)
        #expect(metadata.modelVersionHashesVersion == 3)
        #expect(metadata.modelVersionHashes["BowTie"]?.count == 32)
        #expect(metadata.frameworkVersion != nil)
        #expect(schema.entities.map(\.name) == ["BowTie"])
        #expect(schema.entities.first?.table == "ZBOWTIE")
        #expect(schema.internalTables == ["Z_METADATA", "Z_PRIMARYKEY"])
    }

    @Test func someTintColorsAreNullAndSomePhotosAreExternalFiles() throws {
        let store = try TemporaryStore(rows: 30)
        defer { store.remove() }
        let values = try store.tintColors()
        #expect(values.filter { $0.value == nil }.map(\.pk) == [10, 20, 30])
        let external = ExternalBinaryStorage.directory(store: URL(fileURLWithPath: store.path))
        let files = try FileManager.default.contentsOfDirectory(atPath: external.path)
        #expect(files.count == store.fixture.externalPhotoCount)
    }

    @Test func writingOverAnExistingStoreIsRefusedUnlessAskedFor() throws {
        let store = try TemporaryStore(rows: 2)
        defer { store.remove() }
        #expect(throws: StoreError.self) { try BowTieStoreFixture(rowCount: 2).write(to: store.path) }
        try BowTieStoreFixture(rowCount: 5).write(to: store.path, replacing: true)
        #expect(try store.tintColors().count == 5)
    }
}
