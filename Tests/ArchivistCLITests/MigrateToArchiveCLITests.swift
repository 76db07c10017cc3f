import CoreDataStore
import Foundation
import GRDB
import Testing

/// `archivist migrate --to archive`, run as a user runs it: a class rename in every row, and the
/// way back from a JSON migration.
@Suite struct MigrateToArchiveCLITests {
    static func classNames(_ path: String) throws -> [String?] {
        try StoreCLITests.tintColors(path).map { row in
            guard let value = row.value else { return nil }
            let shown = try ArchivistProcess.run(["inspect", "-", "--format", "json"], stdin: value)
            let document = try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any]
            let objects = document?["objects"] as? [[String: Any]]
            return objects?.first?["class"] as? String
        }
    }

    @Test func aRenameReachesEveryRowAndASecondRunFindsNothingToRename() throws {
        let store = try StoreCLITests.makeStore(rows: 20)
        let r = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "archive",
                                          "--rename-class", "UIColor=MyApp.Tint", "--no-backup"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("→ keyed archive"), "\(r.out)")
        #expect(r.out.contains("converted 18"), "\(r.out)")
        #expect(try Self.classNames(store.path).compactMap { $0 } == Array(repeating: "MyApp.Tint", count: 18))
        let again = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "archive",
                                              "--rename-class", "UIColor=MyApp.Tint", "--no-backup", "--format", "json"])
        #expect(again.status == 0, "\(again.err)")
        let report = try JSONSerialization.jsonObject(with: again.stdout) as? [String: Any]
        #expect(report?["to"] as? String == "archive")
        #expect(report?["converted"] as? Int == 0)
        #expect((report?["skippedBecause"] as? [String: Int])?["nothingToRename"] == 18, "\(again.out)")
    }

    @Test func jsonRowsGoBackToUIColorArchives() throws {
        let store = try StoreCLITests.makeStore(rows: 10)
        let forward = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--allow", "UIColor", "--no-backup"])
        #expect(forward.status == 0, "\(forward.err)")
        let back = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "archive", "--class", ".=UIColor", "--no-backup"])
        #expect(back.status == 0, "\(back.err)")
        #expect(back.out.contains("converted 9"), "\(back.out)")
        for (pk, value) in try StoreCLITests.tintColors(store.path) {
            guard let value, let expected = store.fixture.tintColor(row: pk) else { continue }
            let payload = try ArchivistProcess.run(["unarchive", "-", "--allow", "UIColor", "--to", "json"], stdin: value)
            let color = try JSONDecoder().decode(StoreCLITests.Color.self, from: payload.stdout)
            #expect(color.matches(expected), "Z_PK \(pk)")
        }
    }

    @Test func renamesAndClassesGoOnlyWithToArchive() throws {
        let store = try StoreCLITests.makeStore(rows: 3)
        let r = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--rename-class", "UIColor=MyApp.Tint"])
        #expect(r.status == 64)
        #expect(r.err.contains("--rename-class and --class go with --to archive"), "\(r.err)")
    }

    @Test(arguments: [
        (["--rename-class", "UIColor=My Tint"], "--rename-class UIColor=My Tint: \"My Tint\" holds a space, which no class name has"),
        (["--class", ".=9Lives"], "--class .=9Lives: \"9Lives\" has a part that starts with '9', not a letter or _"),
    ])
    func aBadNameExitsOneBeforeTheStoreIsTouched(options: [String], message: String) throws {
        let store = try StoreCLITests.makeStore(rows: 5)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let r = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "archive"] + options)
        #expect(r.status == 1)
        #expect(r.err == "archivist: \(store.path): \(message)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
        let folder = URL(fileURLWithPath: store.path).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: store.path).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !($0.hasPrefix(name) && $0.contains("backup")) })
    }
}
