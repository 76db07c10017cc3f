import ArchivePayload
import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
import PropertyList
import Testing

/// `migrate --to archive`: class renames in every row, and payloads archived back (the way
/// back from a migration), with migrate's guarantees.
@Suite struct ArchiveMigrationTests {
    static func options(renames: [String] = [], classes: [String: String] = [:], dryRun: Bool = false,
                        backup: MigrationOptions.Backup = .none, batchSize: Int = 5_000) throws -> MigrationOptions {
        MigrationOptions(target: .archive, dryRun: dryRun, backup: backup, batchSize: batchSize,
                         classRenames: try renames.map { try KeyedArchiveClassRenamer.Rename($0) }, archiveClasses: classes)
    }

    /// A blob an app's `OldApp.Color` (NSSecureCoding) left behind: its fields and one shared string.
    static func oldColor(red: Double) throws -> Data {
        var b = KeyedArchiveBuilder()
        let name = b.string("tint")
        let color = b.object("OldApp.Color", fields: [
            ArchivedField(key: "red", value: .inline(.real(red))),
            ArchivedField(key: "name", value: name),
            ArchivedField(key: "label", value: name),
        ])
        return try KeyedArchiveWriter().write(b.archive(root: color))
    }

    static func className(_ blob: Data?) throws -> String? {
        try blob.map { try KeyedArchive(data: $0).rootObject?.className ?? "" }
    }

    @Test func aClassIsRenamedInEveryRowThatHasItAndNothingElseChanges() throws {
        let store = try TemporaryStore(rows: 30)
        defer { store.remove() }
        try store.inject(try Self.oldColor(red: 0.25), intoRow: 3)
        try store.inject(try Self.oldColor(red: 0.5), intoRow: 5)
        let before = try store.tintColors()
        let backup = store.directory.appendingPathComponent("before-rename.sqlite").path
        let result = try AttributeMigrator(options: try Self.options(renames: ["OldApp.Color=NewApp.Color"], backup: .path(backup)))
            .migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.converted == 2)
        #expect(result.skipped[.nothingToRename] == 25)
        #expect(result.skipped[.null] == 3)
        #expect(result.failedCount == 0)
        #expect(result.backupPath == backup)
        let after = try store.tintColors()
        for (old, new) in zip(before, after) {
            if old.pk == 3 || old.pk == 5 {
                #expect(try Self.className(new.value) == "NewApp.Color")
                #expect(new.opt == old.opt + 1, "Z_OPT is bumped on a changed row")
                let renamer = KeyedArchiveClassRenamer(renames: [try .init("OldApp.Color=NewApp.Color")])
                let original = try KeyedArchive(data: try #require(old.value))
                #expect(original.isEquivalent(to: try KeyedArchive(data: try #require(new.value)), renamingClasses: renamer.renamed))
            } else {
                #expect(new.value == old.value, "Z_PK \(old.pk) is untouched")
                #expect(new.opt == old.opt)
            }
        }
        // The backup holds the store as it was.
        let saved = try DatabaseQueue(path: backup)
        defer { try? saved.close() }
        let savedThird = try saved.read { db in try Data.fetchOne(db, sql: "SELECT ZTINTCOLOR FROM ZBOWTIE WHERE Z_PK = 3") }
        #expect(try Self.className(savedThird) == "OldApp.Color")
    }

    @Test func aSecondRunFindsNothingToRename() throws {
        let store = try TemporaryStore(rows: 12)
        defer { store.remove() }
        try store.inject(try Self.oldColor(red: 1), intoRow: 2)
        let options = try Self.options(renames: ["_TtC6OldApp5Color=NewApp.Color"], batchSize: 4)
        #expect(try AttributeMigrator(options: options).migrate(path: store.path, attribute: "BowTie.tintColor").converted == 1)
        let first = try store.tintColors()
        let again = try AttributeMigrator(options: options).migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(again.converted == 0)
        #expect(again.failedCount == 0)
        #expect(again.skipped[.nothingToRename] == 11, "every archive, the renamed one included")
        #expect(try store.tintColors().map(\.value) == first.map(\.value))
    }

    @Test func renamingUIColorKeepsItsHintAndComponentsInEveryRow() throws {
        let store = try TemporaryStore(rows: 20)
        defer { store.remove() }
        let result = try AttributeMigrator(options: try Self.options(renames: ["UIColor=MyApp.Tint"], batchSize: 7))
            .migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.converted == 18)
        for (pk, value, opt) in try store.tintColors() {
            guard let value else { continue }
            let archive = try KeyedArchive(data: value)
            let root = try #require(archive.rootObject)
            #expect(root.className == "MyApp.Tint")
            #expect(root.archivedClass?.hints == ["NSColor"])
            #expect(opt == 2)
            let expected = try #require(store.fixture.tintColor(row: Int(pk)))
            #expect(root[field: "UIRed"] == .inline(.real(Double(Float(expected.red)))))
        }
    }

    @Test func aDryRunRenamesNothing() throws {
        let store = try TemporaryStore(rows: 10)
        defer { store.remove() }
        let before = try store.bytes()
        let result = try AttributeMigrator(options: try Self.options(renames: ["UIColor=MyApp.Tint"], dryRun: true))
            .migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.converted == 9)
        #expect(try store.bytes() == before)
    }

    /// The way back: JSON rows (written by a migration, or by the app since) become UIColor
    /// archives again, equal to the originals.
    @Test func jsonRowsGoBackToTheArchivesTheyCameFrom() throws {
        let store = try TemporaryStore(rows: 40)
        defer { store.remove() }
        let originals = try store.tintColors()
        let forward = MigrationOptions(target: .json, allowList: .transformerDefault(adding: ["UIColor"]), backup: .none)
        #expect(try AttributeMigrator(options: forward).migrate(path: store.path, attribute: "BowTie.tintColor").converted == 36)
        // A row the new app version wrote as JSON after the migration.
        try store.inject(Data(#"{"red":1,"green":0,"blue":0,"alpha":1}"#.utf8), intoRow: 4)
        let back = try AttributeMigrator(options: try Self.options(classes: [".": "UIColor"], batchSize: 9))
            .migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(back.converted == 36)
        #expect(back.failedCount == 0)
        for ((pk, value, opt), original) in zip(try store.tintColors(), originals) {
            guard let value else {
                #expect(original.value == nil)
                continue
            }
            #expect(opt == original.opt + 2)
            if pk == 4 {
                guard case .color(let c)? = try KeyedArchive(data: value).rootObject?.content else {
                    Issue.record("row 4 is not a color")
                    continue
                }
                #expect(c.red == 1 && c.green == 0 && c.alpha == 1)
            } else {
                // Exactly the archive the fixture wrote, as UIKit writes a UIColor.
                #expect(try KeyedArchive(data: value).isEquivalent(to: try KeyedArchive(data: try #require(original.value))), "Z_PK \(pk)")
            }
        }
        let rerun = try AttributeMigrator(options: try Self.options(classes: [".": "UIColor"])).migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(rerun.converted == 0)
        #expect(rerun.skipped[.alreadyConverted] == 36)
    }

    @Test func nullsInPayloadRowsBecomeNSNullAndAPathThatMatchesNothingFailsOnlyItsRow() throws {
        let store = try TemporaryStore(rows: 6)
        defer { store.remove() }
        try store.inject(Data(#"{"tint":{"red":1,"green":0,"blue":0,"alpha":1},"note":null}"#.utf8), intoRow: 1)
        try store.inject(Data(#"{"note":"no tint here"}"#.utf8), intoRow: 2)
        let before = try store.tintColors()
        let result = try AttributeMigrator(options: try Self.options(classes: [".tint": "UIColor"]))
            .migrate(path: store.path, attribute: "BowTie.tintColor")
        #expect(result.converted == 1)
        #expect(result.failures.map(\.primaryKey) == [2])
        #expect(result.failures.first?.reason == .unmappable)
        #expect(result.failures.first?.message == "--class .tint=UIColor matches no value in the payload")
        let after = try store.tintColors()
        #expect(after[1].value == before[1].value && after[1].opt == before[1].opt)
        let archive = try KeyedArchive(data: try #require(after[0].value))
        guard case .dictionary(let keys, let values)? = archive.rootObject?.content else {
            Issue.record("row 1 is not a dictionary")
            return
        }
        let entries = Dictionary(uniqueKeysWithValues: zip(keys.compactMap { archive.object($0)?.content }, values))
        #expect(archive.object(try #require(entries[.string("note")]))?.className == "NSNull")
        #expect(archive.object(try #require(entries[.string("tint")]))?.className == "UIColor")
    }

    @Test func aClassNameThatIsNotOneIsRefusedBeforeTheStoreIsTouched() throws {
        let store = try TemporaryStore(rows: 5)
        defer { store.remove() }
        let before = try store.bytes()
        #expect(throws: KeyedArchiveError.self) { _ = try Self.options(renames: ["UIColor=My Tint"]) }
        do {
            _ = try AttributeMigrator(options: try Self.options(classes: [".": "3D"], backup: .besideStore))
                .migrate(path: store.path, attribute: "BowTie.tintColor")
            Issue.record("migrated with the class name 3D")
        } catch {
            #expect("\(error)".contains("--class .=3D: \"3D\" has a part that starts with '3'"), "\(error)")
        }
        #expect(try store.bytes() == before)
        let files = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        #expect(!files.contains { $0.contains("backup") }, "no backup was made: \(files)")
    }
}
