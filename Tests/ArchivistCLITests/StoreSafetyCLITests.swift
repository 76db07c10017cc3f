import CoreDataStore
import Foundation
import GRDB
import StoreFixtures
import Testing

/// Read-only means read-only: scanning evidence changes no byte, time or file, as root or as
/// anyone, in a read-only folder, with its WAL. And migrate checks before it backs up.
@Suite struct StoreSafetyCLITests {
    /// A WAL store in its own folder whose last rows are only in its `-wal` file, as a device
    /// image holds an app's store: written with checkpoints off and copied, with its `-wal` and
    /// `-shm`, while the writer still had it open.
    static func walStore(rowsInFile: Int, rowsInWAL: Int) throws -> (folder: String, path: String) {
        let work = try ArchivistProcess.temporaryFolder("wal-writer")
        let source = work + "/Notes.sqlite"
        let queue = try DatabaseQueue(path: source)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body BLOB)")
            for i in 0..<rowsInFile { try db.execute(sql: "INSERT INTO note (body) VALUES (?)", arguments: [Data("file row \(i)".utf8)]) }
            try db.checkpoint(.truncate)
            for i in 0..<rowsInWAL { try db.execute(sql: "INSERT INTO note (body) VALUES (?)", arguments: [Data("wal row \(i)".utf8)]) }
        }
        let evidence = try ArchivistProcess.temporaryFolder("evidence")
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: evidence + "/Notes.sqlite" + suffix)
        }
        try queue.close()
        var info = stat()
        stat(evidence + "/Notes.sqlite-wal", &info)
        #expect(info.st_size > 0, "the copy has rows in its WAL")
        return (evidence, evidence + "/Notes.sqlite")
    }

    /// Makes a folder and its files read-only, as evidence is mounted.
    static func makeReadOnly(_ folder: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) { chmod(folder + "/" + name, 0o444) }
        chmod(folder, 0o555)
    }

    @Test func scanningAWALStoreAsRootChangesNoFileAndSeesTheRowsInTheWAL() throws {
        let store = try Self.walStore(rowsInFile: 3, rowsInWAL: 4)
        let before = try FolderSnapshot(store.folder)
        let r = try ArchivistProcess.run(["scan", store.path, "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains(#""rows" : 7"#), "the four rows only in the WAL are counted: \(r.out)")
        #expect(try FolderSnapshot(store.folder) == before)
        // And in a read-only folder, as root.
        try Self.makeReadOnly(store.folder)
        let sealed = try FolderSnapshot(store.folder)
        #expect(try ArchivistProcess.run(["scan", store.path]).status == 0)
        #expect(try FolderSnapshot(store.folder) == sealed)
    }

    @Test func scanningAStoreWithoutWALChangesNoFile() throws {
        let folder = try ArchivistProcess.temporaryFolder("plain-store")
        let path = folder + "/Plain.sqlite"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)")
            try db.execute(sql: "INSERT INTO t (v) VALUES (x'00')")
        }
        try queue.close()
        let before = try FolderSnapshot(folder)
        #expect(try ArchivistProcess.run(["scan", path]).status == 0)
        #expect(try FolderSnapshot(folder) == before, "no -journal, -wal or -shm appears")
    }

    @Test(.enabled(if: ArchivistProcess.canRunAsAnotherUser, "needs root and setpriv(1) to run as nobody"))
    func anOrdinaryUserScansAWALStoreInAReadOnlyFolder() throws {
        let store = try Self.walStore(rowsInFile: 2, rowsInWAL: 3)
        try Self.makeReadOnly(store.folder)
        let before = try FolderSnapshot(store.folder)
        let scan = try ArchivistProcess.runAsNobody(["scan", store.path, "--format", "json"])
        #expect(scan.status == 0, "\(scan.err)")
        #expect(scan.out.contains(#""rows" : 5"#), "\(scan.out)")
        let dryRun = try ArchivistProcess.runAsNobody(["migrate", store.path, "--attribute", "note.body", "--to", "json", "--dry-run"])
        #expect(dryRun.status == 1, "the rows are not archives, so each would fail")
        #expect(dryRun.out.contains("(dry run: nothing written)"), "\(dryRun.out)\(dryRun.err)")
        let migrate = try ArchivistProcess.runAsNobody(["migrate", store.path, "--attribute", "note.body", "--to", "json"])
        #expect(migrate.status == 1)
        #expect(migrate.err.contains("nothing was changed"), "\(migrate.err)")
        #expect(try FolderSnapshot(store.folder) == before)
    }

    /// The Palette store (its model in Z_MODELCACHE) in WAL mode, with a deletion only in its
    /// `-wal` file, copied with its `-wal` and `-shm` while the writer still had it open: a
    /// reader that skipped the WAL would see 40 groups instead of 5.
    static func walPaletteStore() throws -> (folder: String, path: String) {
        let work = try ArchivistProcess.temporaryFolder("palette-writer")
        let source = work + "/Palette.sqlite"
        try PaletteStoreFixture(groupCount: 40).write(to: source)
        let queue = try DatabaseQueue(path: source)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "DELETE FROM ZGROUP WHERE Z_PK > 5")
        }
        let evidence = try ArchivistProcess.temporaryFolder("palette-evidence")
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: evidence + "/Palette.sqlite" + suffix)
        }
        try queue.close()
        return (evidence, evidence + "/Palette.sqlite")
    }

    /// Every verb that only reads a store, with what each must see of the rows in the WAL.
    static func readOnlyVerbs(_ path: String) -> [(arguments: [String], expected: String)] {
        [(["scan", path, "--format", "json"], #""rows" : 5,"#),
         (["model", path], "Club (class PaletteClub, parent Group, table ZGROUP)"),
         (["codegen", path, "--attribute", "Group.darkColor"], "// 5 values (5 keyed archives)."),
         (["migrate", path, "--attribute", "Group.darkColor", "--to", "json", "--allow", "UIColor", "--dry-run"],
          "would convert 5, skipped 0, failed 0 of 5 rows"),
         (["sweep", path], #""attribute":"Group.darkColor","table":"ZGROUP","column":"ZDARKCOLOR","rows":5,"#),
         (["sweep", (path as NSString).deletingLastPathComponent, "--format", "json"], #""coreDataStore" : 1"#)]
    }

    @Test func everyVerbThatOnlyReadsAStoreChangesNoFileAndSeesTheRowsInTheWAL() throws {
        let store = try Self.walPaletteStore()
        let before = try FolderSnapshot(store.folder)
        for (arguments, expected) in Self.readOnlyVerbs(store.path) {
            let r = try ArchivistProcess.run(arguments)
            #expect(r.status == 0, "\(arguments[0]): \(r.err)")
            #expect(r.out.contains(expected), "\(arguments[0]): \(r.out)")
            #expect(try FolderSnapshot(store.folder) == before, "\(arguments[0])")
        }
    }

    @Test(.enabled(if: ArchivistProcess.canRunAsAnotherUser, "needs root and setpriv(1) to run as nobody"))
    func anOrdinaryUserRunsEveryReadingVerbOnAStoreInAReadOnlyFolder() throws {
        let store = try Self.walPaletteStore()
        try Self.makeReadOnly(store.folder)
        let before = try FolderSnapshot(store.folder)
        for (arguments, expected) in Self.readOnlyVerbs(store.path) {
            let r = try ArchivistProcess.runAsNobody(arguments)
            #expect(r.status == 0, "\(arguments[0]): \(r.err)")
            #expect(r.out.contains(expected), "\(arguments[0]): \(r.out)")
        }
        #expect(try FolderSnapshot(store.folder) == before)
    }

    /// The real stores of the shared corpus: every byte and time of every file stays.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: StoreSafetyCLITests.corpusStores), "needs ../shared/corpus/stores"))
    func scanningTheCorpusStoresChangesNothing() throws {
        let before = try FolderSnapshot(Self.corpusStores)
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.corpusStores) where name.hasSuffix(".sqlite") {
            for verb in [["scan"], ["model"], ["model", "--audit"], ["sweep"]] {
                let r = try ArchivistProcess.run(verb + [Self.corpusStores + "/" + name])
                #expect(!r.err.contains("readonly") && !r.err.contains("Fatal"), "\(verb) \(name): \(r.err)")
                #expect(!r.out.isEmpty, "\(verb) \(name)")
            }
        }
        // An attribute of Notes' store that holds archives, and one (CloudKit's system fields) whose archives have no root.
        let notes = Self.corpusStores + "/NoteStore.sqlite"
        for attribute in ["ICAccount.replicaIDToBundleIdentifier", "ICCloudSyncingObject.serverRecordData"] {
            let codegen = try ArchivistProcess.run(["codegen", notes, "--attribute", attribute])
            #expect(!codegen.err.contains("readonly") && !codegen.err.contains("--top"), "codegen \(attribute): \(codegen.err)")
            let allow = ["--allow", "CKRecordID", "--allow", "CKRecordZoneID", "--allow", "CKReference"]
            let dryRun = try ArchivistProcess.run(["migrate", notes, "--attribute", attribute, "--to", "json", "--dry-run"] + allow)
            #expect(dryRun.out.contains("(dry run: nothing written)"), "migrate \(attribute): \(dryRun.out)\(dryRun.err)")
            #expect(!dryRun.err.contains("readonly") && !(dryRun.out + dryRun.err).contains("--top"), "migrate \(attribute): \(dryRun.err)")
            if attribute.hasSuffix("serverRecordData") {
                #expect(codegen.err.contains("the archive has no root object ($top has: "), "\(codegen.err)")
                #expect(dryRun.out.contains("the archive has no root object ($top has: "), "\(dryRun.out)")
            }
        }
        #expect(try FolderSnapshot(Self.corpusStores) == before)
    }

    static let corpusStores = ArchivistProcess.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/stores").path

    @Test func scanReadsAStoreFromStandardInputAndLeavesNoTemporaryFile() throws {
        let store = try StoreCLITests.makeStore(rows: 5)
        let temporary = try ArchivistProcess.temporaryFolder("tmpdir")
        let r = try ArchivistProcess.run(["scan", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: store.path)),
                                         environment: ["TMPDIR": temporary])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("<stdin>: Core Data store"), "\(r.out)")
        #expect(r.out.contains("BowTie (ZBOWTIE): 5 rows"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    // MARK: migrate's pre-flight

    static func backups(of path: String) throws -> [String] {
        let name = (path as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            .filter { $0.hasPrefix(name + ".archivist-backup") }.sorted()
    }

    static let migrate = ["--attribute", "BowTie.tintColor", "--to", "json", "--allow", "UIColor"]

    @Test func aStoreLockedByAnotherProcessIsRefusedWithinTheTimeoutAndNoBackupIsMade() throws {
        let store = try StoreCLITests.makeStore(rows: 30)
        let before = try StoreCLITests.tintColors(store.path)
        // This test process holds the write lock, as an app in the middle of a save does.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: store.path, configuration: configuration)
        try holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        let started = Date()
        let r = try ArchivistProcess.run(["migrate", store.path] + Self.migrate + ["--busy-timeout", "1"])
        let waited = Date().timeIntervalSince(started)
        try holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try holder.close()
        #expect(r.status == 1)
        #expect(r.err == "archivist: \(store.path): the store is locked by another process (waited 1 s; --busy-timeout SECONDS waits longer); nothing was changed\n", "\(r.err)")
        #expect(waited < 30, "it gave up after the timeout, not at some later point (took \(waited) s)")
        #expect(try Self.backups(of: store.path).isEmpty)
        #expect(try StoreCLITests.tintColors(store.path).map(\.value) == before.map(\.value))
    }

    @Test func aReadOnlyStoreFileIsRefusedEvenForRootAndNoBackupIsMade() throws {
        let store = try StoreCLITests.makeStore(rows: 10)
        chmod(store.path, 0o444)
        let r = try ArchivistProcess.run(["migrate", store.path] + Self.migrate)
        #expect(r.status == 1)
        #expect(r.err.contains("the store is read-only (mode 444); nothing was changed"), "\(r.err)")
        #expect(try Self.backups(of: store.path).isEmpty)
    }

    @Test func anExistingBackupPathIsRefusedBeforeAnythingIsDone() throws {
        let store = try StoreCLITests.makeStore(rows: 10)
        let taken = store.path + ".mine"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: taken))
        let r = try ArchivistProcess.run(["migrate", store.path] + Self.migrate + ["--backup", taken])
        #expect(r.status == 1)
        #expect(r.err.contains("the backup path \(taken) exists"))
        #expect(try String(contentsOfFile: taken, encoding: .utf8) == "keep me")
        #expect(try StoreCLITests.tintColors(store.path).compactMap(\.value).allSatisfy { $0.starts(with: Array("bplist".utf8)) })
    }

    @Test func aRerunWithNothingToDoMakesNoBackup() throws {
        let store = try StoreCLITests.makeStore(rows: 10)
        let first = try ArchivistProcess.run(["migrate", store.path] + Self.migrate)
        #expect(first.status == 0)
        #expect(try Self.backups(of: store.path).count == 1)
        let again = try ArchivistProcess.run(["migrate", store.path] + Self.migrate)
        #expect(again.status == 0)
        #expect(again.out.contains("no backup: nothing was changed"), "\(again.out)")
        #expect(try Self.backups(of: store.path).count == 1)
    }

    @Test func twoMigratesMakeTwoWholeBackupsAndNeitherReplacesTheOther() throws {
        let store = try StoreCLITests.makeStore(rows: 10)
        // A copy on disk (Data(contentsOf:) may map the file, and then see the migration's writes).
        let pristine = store.path + ".pristine"
        try FileManager.default.copyItem(atPath: store.path, toPath: pristine)
        for _ in 0..<2 {
            // The archives as they were, so that each run has work to do.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            try FileManager.default.copyItem(atPath: pristine, toPath: store.path)
            let r = try ArchivistProcess.run(["migrate", store.path] + Self.migrate)
            #expect(r.status == 0, "\(r.err)")
        }
        let names = try Self.backups(of: store.path)
        #expect(names.count == 2, "\(names)")
        for name in names {
            let path = (store.path as NSString).deletingLastPathComponent + "/" + name
            #expect(try StoreCLITests.tintColors(path).compactMap(\.value).allSatisfy { $0.starts(with: Array("bplist".utf8)) },
                    "each backup holds the archives as they were")
        }
    }

    /// A second run in the same second finds its backup name taken by the first run's: it
    /// takes the next number instead of failing. The first run's backups are stood in for by
    /// files holding every name of the coming minute, so the test does not depend on timing.
    @Test func twoMigratesInTheSameSecondGetNumberedBackups() throws {
        let store = try StoreCLITests.makeStore(rows: 10)
        let now = Date()
        var taken: [String] = []
        for second in -1...60 {
            let path = StoreBackup.defaultPath(forStore: store.path, date: now.addingTimeInterval(Double(second)))
            try Data("an earlier run's backup".utf8).write(to: URL(fileURLWithPath: path))
            taken.append(path)
        }
        let r = try ArchivistProcess.run(["migrate", store.path] + Self.migrate)
        #expect(r.status == 0, "\(r.err)")
        let backup = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("backup: ") }.map { String($0.dropFirst("backup: ".count)) })
        #expect(taken.contains(String(backup.dropLast("-2.sqlite".count)) + ".sqlite"), "\(backup)")
        #expect(backup.hasSuffix("-2.sqlite"), "\(backup)")
        for path in taken { #expect(try String(contentsOfFile: path, encoding: .utf8) == "an earlier run's backup") }
        #expect(try StoreCLITests.tintColors(backup).compactMap(\.value).allSatisfy { $0.starts(with: Array("bplist".utf8)) })
    }

    @Test func aRunThatFailsBeforeChangingAnythingRemovesItsBackupAndSaysSo() throws {
        let store = try StoreCLITests.makeStore(rows: 20)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE UPDATE ON ZBOWTIE BEGIN SELECT RAISE(ABORT, 'updates refused by a trigger'); END")
        }
        try queue.close()
        let r = try ArchivistProcess.run(["migrate", store.path] + Self.migrate)
        #expect(r.status == 1)
        #expect(r.err.contains("updates refused by a trigger"), "\(r.err)")
        #expect(r.err.contains("the store was not changed, so this run's backup \(store.path).archivist-backup-"), "\(r.err)")
        #expect(r.err.contains(" was removed"))
        #expect(try Self.backups(of: store.path).isEmpty)
    }

    @Test func aRunThatFailsAfterCommittingKeepsItsBackupAndSaysSo() throws {
        let store = try StoreCLITests.makeStore(rows: 20)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE UPDATE ON ZBOWTIE WHEN OLD.Z_PK > 10 BEGIN SELECT RAISE(ABORT, 'updates refused by a trigger'); END")
        }
        try queue.close()
        let r = try ArchivistProcess.run(["migrate", store.path] + Self.migrate + ["--batch-size", "5"])
        #expect(r.status == 1)
        #expect(r.err.contains("rows were converted before it stopped (run migrate again to finish), and the backup of the store as it was is at \(store.path).archivist-backup-"), "\(r.err)")
        #expect(try Self.backups(of: store.path).count == 1)
    }
}
