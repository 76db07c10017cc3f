import CoreDataStore
import StoreFixtures
import Foundation
import GRDB
import Testing

/// `archivist scan` and `archivist migrate`, run as a user runs them, on BowTie stores.
@Suite struct StoreCLITests {
    struct Color: Codable {
        var red, green, blue, alpha: Double

        func matches(_ other: BowTieStoreFixture.Color) -> Bool {
            Float(red) == Float(other.red) && Float(green) == Float(other.green)
                && Float(blue) == Float(other.blue) && Float(alpha) == Float(other.alpha)
        }
    }

    /// A BowTie store in a fresh temporary path.
    static func makeStore(rows: Int, configure: (inout BowTieStoreFixture) -> Void = { _ in }) throws -> (path: String, fixture: BowTieStoreFixture) {
        let path = ArchivistProcess.temporaryFile("BowTies.sqlite")
        var fixture = BowTieStoreFixture(rowCount: rows)
        configure(&fixture)
        try fixture.write(to: path)
        return (path, fixture)
    }

    static func tintColors(_ path: String) throws -> [(pk: Int, value: Data?)] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, ZTINTCOLOR FROM ZBOWTIE ORDER BY Z_PK").map { ($0[0] as Int, $0[1] as Data?) }
        }
    }

    static let allowUIColor = ["--allow", "UIColor"]

    @Test(.enabled(if: ArchivistProcess.hasTerminal, "needs script(1) to give a terminal"))
    func scanDrawsAProgressBarOnATerminalOnly() throws {
        let store = try Self.makeStore(rows: 3_000)
        let piped = try ArchivistProcess.run(["scan", store.path])
        #expect(piped.status == 0)
        #expect(!piped.err.contains("rows/s"))
        // Standard output goes to /dev/null; standard error stays on the terminal.
        let shown = try ArchivistProcess.runOnTerminal(["scan", store.path], shellSuffix: "> /dev/null")
        #expect(shown.contains("3,000/3,000 rows"), "\(shown.debugDescription)")
        #expect(shown.hasSuffix("\r\u{1B}[K"), "the bar is cleared at the end")
    }

    @Test func scanReportsEachAttributeOfTheBowTieStoreAndTheClassToAllow() throws {
        let store = try Self.makeStore(rows: 50)
        let r = try ArchivistProcess.run(["scan", store.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Core Data store (SQLite), store UUID \(store.fixture.storeUUID.uuidString), 1 entity: BowTie"))
        #expect(r.out.contains("BowTie (ZBOWTIE): 50 rows"))
        #expect(r.out.contains("BowTie.tintcolor (ZTINTCOLOR, BLOB)"))
        #expect(r.out.contains("kinds: keyed archive (binary) 45, NULL 5"))
        #expect(r.out.contains("classes: UIColor 45"))
        #expect(r.out.contains("0 accepted, 45 refused (UIColor 45)"))
        #expect(r.out.contains("accept with: --allow UIColor"))
        #expect(r.out.contains("super.allowedTopLevelClasses + [UIColor.self]"))
        #expect(r.out.contains("BowTie.photodata (ZPHOTODATA, BLOB)"))
        #expect(r.out.contains("Core Data external storage: 14 inline (0x01 header), 2 in _EXTERNAL_DATA files (0x02 header)"))
        #expect(r.out.contains("plain columns: isfavorite (INTEGER), timesworn (INTEGER), lastworn (TIMESTAMP), rating (FLOAT), name (VARCHAR), searchkey (VARCHAR), url (VARCHAR)"))
        #expect(r.err.isEmpty)
    }

    @Test func scanWithAllowAcceptsTheColorsAndSpeaksJSON() throws {
        let store = try Self.makeStore(rows: 20)
        let r = try ArchivistProcess.run(["scan", store.path, "--format", "json"] + Self.allowUIColor)
        #expect(r.status == 0, "\(r.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        #expect(report["coreData"] as? Bool == true)
        let tables = try #require(report["tables"] as? [[String: Any]])
        let columns = try #require(tables.first?["columns"] as? [[String: Any]])
        let tint = try #require(columns.first { $0["column"] as? String == "ZTINTCOLOR" })
        #expect(tint["attribute"] as? String == "BowTie.tintcolor")
        #expect((tint["kinds"] as? [String: Int]) == ["keyedArchiveBinary": 18, "null": 2])
        #expect((tint["allowList"] as? [String: Any])?["accepted"] as? Int == 18)
        #expect((tint["allowList"] as? [String: Any])?["refused"] as? Int == 0)
    }

    @Test func migrateToJSONLeavesEveryTintColorReadableByJSONDecoder() throws {
        let store = try Self.makeStore(rows: 60)
        let r = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--no-backup"] + Self.allowUIColor)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("converted 54, skipped 6 (NULL 6), failed 0 of 60 rows"))
        #expect(r.err.isEmpty, "no progress bar when standard error is not a terminal")
        for (pk, value) in try Self.tintColors(store.path) {
            guard let expected = store.fixture.tintColor(row: pk) else {
                #expect(value == nil)
                continue
            }
            let color = try JSONDecoder().decode(Color.self, from: try #require(value))
            #expect(color.matches(expected), "Z_PK \(pk)")
        }
    }

    @Test func aDryRunLeavesTheStoreByteForByteUnchanged() throws {
        let store = try Self.makeStore(rows: 40)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let r = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--dry-run"] + Self.allowUIColor)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("(dry run: nothing written)"))
        #expect(r.out.contains("would convert 36"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: (store.path as NSString).deletingLastPathComponent)
        let name = (store.path as NSString).lastPathComponent
        #expect(!siblings.contains { $0.hasPrefix(name + ".archivist-backup") }, "a dry run makes no backup")
    }

    @Test func aCorruptBlobIsListedWithItsKeyAndTheRestMigrateAndARerunSkipsThem() throws {
        let store = try Self.makeStore(rows: 30) { $0.corruptTintColorRows = [12] }
        let backup = store.path + ".before"
        let r = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--backup", backup] + Self.allowUIColor)
        #expect(r.status == 1)
        #expect(r.out.contains("backup: \(backup)"))
        #expect(r.out.contains("converted 26, skipped 3 (NULL 3), failed 1"))
        #expect(r.out.contains("Z_PK 12: binary property list that does not read"))
        #expect(FileManager.default.fileExists(atPath: backup))
        let values = try Self.tintColors(store.path)
        #expect(values.first { $0.pk == 12 }?.value?.starts(with: Array("bplist".utf8)) == true)
        let again = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--no-backup"] + Self.allowUIColor)
        #expect(again.status == 1)
        #expect(again.out.contains("converted 0, skipped 29 (NULL 3, already JSON 26), failed 1"))
    }

    @Test func migrateWithoutAllowingTheClassRefusesEveryRowAndSaysWhatToAllow() throws {
        let store = try Self.makeStore(rows: 12)
        let before = try Self.tintColors(store.path)
        let r = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--no-backup"])
        #expect(r.status == 1)
        #expect(r.out.contains("Z_PK 1, 2, 3, 4, 5, 6, 7, 8 and 3 more: refused by the allow-list: UIColor at root"))
        #expect(r.out.contains("rerun with: --allow UIColor"))
        #expect(try Self.tintColors(store.path).map(\.value) == before.map(\.value))
    }

    @Test func migrateNamesAMissingStoreOrAttributeOnOneLine() throws {
        let missing = try ArchivistProcess.run(["migrate", "/nonexistent/BowTies.sqlite", "--attribute", "BowTie.tintColor", "--to", "json"])
        #expect(missing.status == 1)
        #expect(missing.err == "archivist: /nonexistent/BowTies.sqlite: no such file\n")
        let store = try Self.makeStore(rows: 2)
        let wrong = try ArchivistProcess.run(["migrate", store.path, "--attribute", "Hat.tintColor", "--to", "json"])
        #expect(wrong.status == 1)
        #expect(wrong.err.hasPrefix("archivist: \(store.path): no entity named Hat; the store has: BowTie"))
        let usage = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--backup", "x", "--no-backup"])
        #expect(usage.status == 64)
    }

    @Test func migrateHelpNamesItsSafetyOptions() throws {
        let r = try ArchivistProcess.run(["migrate", "--help"])
        #expect(r.status == 0)
        for option in ["--attribute", "--to", "--dry-run", "--backup", "--no-backup", "--allow", "--date-strategy", "--batch-size"] {
            #expect(r.out.contains(option), "\(option)")
        }
    }

    /// The promise a user relies on: whenever the process dies, the store is valid, each value is
    /// the old archive or the new JSON, and running the command again finishes the job.
    @Test func aKillNineMidMigrationLeavesEveryValueOldOrNewAndARerunFinishes() throws {
        let rows = 40_000
        let store = try Self.makeStore(rows: rows)
        let process = Process()
        process.executableURL = ArchivistProcess.executable
        process.arguments = ["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--no-backup", "--batch-size", "500"] + Self.allowUIColor
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until at least one batch is committed, then kill without warning.
        let deadline = Date().addingTimeInterval(60)
        var committed = 0
        while process.isRunning, committed == 0, Date() < deadline {
            usleep(20_000)
            committed = (try? Self.countJSON(store.path)) ?? 0
        }
        let killedWhileRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(killedWhileRunning, "the migration ended before it could be killed; use more rows")
        #expect(process.terminationReason == .uncaughtSignal)

        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: store.path, configuration: configuration)
        let integrity = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        try queue.close()
        #expect(integrity == ["ok"])

        // Each value is old (an archive that still converts to the right color) or new (JSON).
        let converter = ValueConverter(options: MigrationOptions(target: .json, allowList: .transformerDefault(adding: ["UIColor"])))
        var old = 0, new = 0
        for (pk, value) in try Self.tintColors(store.path) {
            guard let expected = store.fixture.tintColor(row: pk) else {
                #expect(value == nil)
                continue
            }
            let bytes = try #require(value)
            let json: Data
            if bytes.first == UInt8(ascii: "{") {
                new += 1
                json = bytes
            } else {
                old += 1
                guard case .converted(let converted) = converter.convert(bytes) else {
                    Issue.record("Z_PK \(pk) is neither an archive nor JSON")
                    continue
                }
                json = converted
            }
            #expect(try JSONDecoder().decode(Color.self, from: json).matches(expected), "Z_PK \(pk)")
        }
        #expect(new > 0)
        #expect(old > 0)

        let rerun = try ArchivistProcess.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--no-backup"] + Self.allowUIColor)
        #expect(rerun.status == 0, "\(rerun.err)")
        #expect(rerun.out.contains("converted \(StoreCLITests.decimal(old)),"))
        #expect(rerun.out.contains("failed 0"))
        #expect(try Self.countJSON(store.path) == rows - rows / 10)
    }

    static func countJSON(_ path: String) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZBOWTIE WHERE substr(ZTINTCOLOR, 1, 1) = CAST('{' AS BLOB)") ?? 0
        }
    }

    static func decimal(_ n: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_US")
        return formatter.string(from: NSNumber(value: n)) ?? String(n)
    }
}
