import CoreDataModel
import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
import PropertyList
import StoreFixtures
import Testing

/// Damaged and hostile models are refused with a typed error that says where, never a crash.
@Suite struct HostileModelTests {
    static var cache: Data { get throws { try ManagedObjectModelArchiver().modelCache(PaletteModel.version2) } }

    @Test func aTruncatedModelCacheSaysItEndsEarly() throws {
        let whole = try Self.cache
        let error = try #require(throws: ModelError.self) { try ModelReader().read(modelCache: whole.prefix(whole.count / 2)) }
        #expect(error.code == .malformed)
        #expect(error.message.contains("ends early"), "\(error)")
        #expect(error.location?.hasPrefix("compressed byte") == true)
    }

    @Test func bytesThatAreNotDeflateAreRefused() {
        let error = #expect(throws: ModelError.self) { try ModelReader().read(modelCache: Data([0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x01])) }
        #expect(error?.code == .malformed)
    }

    @Test func aCacheThatInflatesPastTheLimitStopsAtTheLimit() throws {
        // 64 MB of zeros compress to about 64 kB: the limit stops inflating at 1 MB.
        let bomb = try ManagedObjectModelArchiverSupport.deflate(Data(count: 64 << 20))
        var options = ModelReadOptions()
        options.maximumInflatedBytes = 1 << 20
        let error = #expect(throws: ModelError.self) { try ModelReader(options: options).read(modelCache: bomb) }
        #expect(error?.code == .limitExceeded)
    }

    @Test func anArchiveThatIsNotAModelIsRefusedAsSuch() throws {
        var b = KeyedArchiveBuilder()
        let root = b.array([b.string("not a model")])
        let error = #expect(throws: ModelError.self) { try ModelReader().read(archive: try KeyedArchiveWriter().write(b.archive(root: root))) }
        #expect(error?.code == .notAModel)
    }

    @Test func anEntityWithoutANameIsRefusedAtItsObject() throws {
        var b = KeyedArchiveBuilder()
        let root = b.reserve()
        let entity = b.object("NSEntityDescription", fields: [ArchivedField(key: "NSProperties", value: .null)])
        let entities = b.dictionary(keys: [b.string("X")], values: [entity])
        b.define(root, className: "NSManagedObjectModel", fields: [ArchivedField(key: "NSEntities", value: entities)])
        let error = try #require(throws: ModelError.self) { try ModelReader().read(archive: try KeyedArchiveWriter().write(b.archive(root: root))) }
        #expect(error.code == .malformed)
        #expect(error.description.contains("no NSEntityName at object #"), "\(error)")
    }

    @Test func moreEntitiesThanTheLimitAreRefused() throws {
        var options = ModelReadOptions()
        options.maximumEntities = 3
        let error = #expect(throws: ModelError.self) { try ModelReader(options: options).read(modelCache: try Self.cache) }
        #expect(error?.code == .limitExceeded)
    }

    @Test func sourceXMLWithADocumentTypeIsRefusedSoNoEntityCanExpand() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE model [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <model><entity name="&b;"/></model>
            """
        let error = #expect(throws: ModelError.self) { try ModelReader().read(contents: Data(xml.utf8)) }
        #expect(error?.code == .malformed)
        #expect(error?.message.contains("document type") == true)
    }

    @Test func brokenSourceXMLNamesItsLine() {
        let xml = "<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\">\n</model>\n"
        let error = #expect(throws: ModelError.self) { try ModelReader().read(contents: Data(xml.utf8)) }
        #expect(error?.code == .malformed)
        #expect(error?.location?.hasPrefix("line ") == true, "\(String(describing: error))")
    }

    @Test func aStoreWithADamagedModelCacheIsStillScannedAndSaysWhy() throws {
        let path = try ModelFixtureTests.temporaryStore()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = x'0102030405'") }
        try queue.close()
        let report = try StoreScanner().scan(path: path)
        #expect(report.model == nil)
        #expect(report.modelProblem?.hasPrefix("Z_MODELCACHE does not read:") == true, "\(report.modelProblem ?? "")")
        #expect(report.tables.first { $0.name == "ZGROUP" }?.rowCount == 40)
    }
}

/// Raw DEFLATE for the inflate-limit test, through the fixture writer.
enum ManagedObjectModelArchiverSupport {
    static func deflate(_ data: Data) throws -> Data { try RawDeflateFixture.deflate(data) }
}
