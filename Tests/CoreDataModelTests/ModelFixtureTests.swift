import CoreDataModel
import CoreDataStore
import Foundation
import StoreFixtures
import Testing

/// The Palette model read from its source, its compiled form and a store's cache is one model.
@Suite struct ModelFixtureTests {
    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/models")
    static let source = models.appendingPathComponent("Palette.xcdatamodeld").path
    static let compiled = models.appendingPathComponent("Palette.momd").path

    static func temporaryStore(_ fixture: PaletteStoreFixture = PaletteStoreFixture()) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-palette-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("Palette.sqlite").path
        try fixture.write(to: path)
        return path
    }

    @Test(arguments: PaletteModel.versionNames)
    func eachSourceVersionAndItsCompiledMomGiveTheSameModel(_ version: String) throws {
        let reader = ModelReader()
        let source = try reader.read(path: Self.source + "/\(version).xcdatamodel")
        let compiled = try reader.read(path: Self.compiled + "/\(version).mom")
        #expect(source.model == compiled.model)
        let declared = version == "Palette" ? PaletteModel.version1 : PaletteModel.version2
        #expect(source.model == declared)
    }

    @Test func theSourceBundleAndTheCompiledBundleBothOpenTheCurrentVersion() throws {
        let source = try ModelReader().read(path: Self.source)
        let compiled = try ModelReader().read(path: Self.compiled)
        #expect(source.source.version == "Palette 2")
        #expect(source.versionMatch == .current)
        #expect(source.versions == ["Palette", "Palette 2"])
        #expect(compiled.source.version == "Palette 2")
        #expect(compiled.versionMatch == .current)
        #expect(source.model == compiled.model)
        #expect(source.model.entities.map(\.name) == ["Club", "Group", "Member", "Team"])
    }

    @Test func theCompiledBundlePicksTheVersionWhoseHashesEqualTheStores() throws {
        let first = try ModelReader().read(path: Self.compiled, storeHashes: PaletteModel.versionHashes(PaletteModel.version1))
        #expect(first.source.version == "Palette")
        #expect(first.versionMatch == .matchesStore)
        #expect(first.model == PaletteModel.version1)
        var other = PaletteModel.versionHashes(PaletteModel.version2)
        other["Group"] = Data(repeating: 7, count: 32)
        #expect(throws: ModelError.self) { try ModelReader().read(path: Self.compiled, storeHashes: other) }
    }

    @Test func theCheckedInCompiledModelIsExactlyWhatTheFixtureWriterWrites() throws {
        for (name, data) in try CompiledModelFixture.files() {
            let checkedIn = try Data(contentsOf: URL(fileURLWithPath: Self.compiled + "/" + name))
            #expect(checkedIn == data, "\(name) differs: run swift run archivist-fixtures --models")
        }
    }

    @Test func theStoresModelCacheIsTheSameModelAsItsSource() throws {
        let path = try Self.temporaryStore()
        let schema = try StoreScanner().schema(path: path)
        let cached = try #require(schema.model)
        #expect(cached.source == .modelCache(store: path))
        #expect(cached.model == (try ModelReader().read(path: Self.source).model))
        #expect(schema.warnings.isEmpty, "\(schema.warnings)")
        let fromFile = try StoreScanner(options: ScanOptions(model: .file(Self.compiled))).schema(path: path)
        #expect(fromFile.model?.source.version == "Palette 2")
        #expect(fromFile.model?.versionMatch == .matchesStore)
    }

    @Test func subentitiesShareTheRootTableAndSameNamedAttributesAreNumbered() {
        let model = PaletteModel.version2
        #expect(model.entityOrder == ["Group", "Club", "Team", "Member"])
        #expect(model.entity(named: "Club")?.table == "ZGROUP")
        #expect(model.entity(named: "Club")?.attribute(named: "badge")?.column == "ZBADGE")
        #expect(model.entity(named: "Team")?.attribute(named: "badge")?.column == "ZBADGE1")
        #expect(model.entity(named: "Group")?.attribute(named: "previewImage")?.column == nil)
        #expect(model.attribute("accent", of: "Team")?.attribute.column == "ZACCENT")
        #expect(model.table(named: "ZMEMBER")?.role(ofColumn: "Z1_GROUP") == .toOneEntity(entity: "Member", name: "group"))
    }
}
