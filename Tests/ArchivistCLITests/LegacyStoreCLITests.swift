import CoreDataStore
import KeyedArchive
import PostgresFixtures
import PostgresTable
import Foundation
import GRDB
import StoreFixtures
import Testing

/// A macOS app's Core Data store whose Transformable attributes name `NSUnarchiveFromData`
/// (`LegacyNotesStoreFixture`): its values are NSArchiver typedstreams, scanned, audited and
/// migrated as a user would, with today's guarantees.
@Suite struct LegacyStoreCLITests {
    static func makeStore(notes: Int) throws -> String {
        let path = ArchivistProcess.temporaryFile("Notes.sqlite")
        try LegacyNotesStoreFixture(noteCount: notes).write(to: path)
        return path
    }

    static func column(_ path: String, _ name: String) throws -> [(pk: Int, value: Data?)] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, \(name) FROM ZNOTE ORDER BY Z_PK").map { ($0[0] as Int, $0[1] as Data?) }
        }
    }

    struct Color: Decodable { var red, green, blue, alpha: Double }

    @Test func scanReportsTypedStreamsAndRefusesEveryOne() throws {
        let store = try Self.makeStore(notes: 18)
        let r = try ArchivistProcess.run(["scan", store, "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let report = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let columns = (report?["tables"] as? [[String: Any]])?.flatMap { $0["columns"] as? [[String: Any]] ?? [] } ?? []
        let color = try #require(columns.first { ($0["attribute"] as? String) == "Note.textColor" })
        #expect((color["kinds"] as? [String: Int])?["typedStream"] == 16, "\(color)")
        #expect((color["classes"] as? [String: Int])?["NSColor"] == 16)
        let body = try #require(columns.first { ($0["attribute"] as? String) == "Note.body" })
        #expect((body["kinds"] as? [String: Int])?["typedStream"] == 18)
        let text = try ArchivistProcess.run(["scan", store])
        #expect(text.out.contains("NSArchiver typedstream"), "\(text.out)")
        #expect(text.out.contains("which no secure unarchiver reads"), "\(text.out)")
    }

    @Test func theAuditSaysTheRowsMustBeMigratedFirstAndHow() throws {
        let store = try Self.makeStore(notes: 6)
        let r = try ArchivistProcess.run(["model", store, "--audit", "--format", "json"])
        #expect(r.status == 1, "\(r.err)")
        let audit = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let findings = try #require((audit?["audit"] as? [String: Any])?["findings"] as? [[String: Any]] ?? audit?["findings"] as? [[String: Any]])
        let color = try #require(findings.first { $0["attribute"] as? String == "Note.textColor" })
        #expect((color["message"] as? String)?.contains("NSArchiver typedstreams") == true)
        #expect((color["fix"] as? [String: Any])?["migrateFirst"] as? String == "archivist migrate STORE --attribute Note.textColor --to archive")
        #expect((color["rows"] as? [String: Any])?["typedStreams"] as? Int == 6)
        let text = try ArchivistProcess.run(["model", store, "--audit"])
        #expect(text.out.contains("first: archivist migrate STORE --attribute Note.textColor --to archive"), "\(text.out)")
    }

    @Test func migrateToJSONGivesEachColorsPayloadAndTheCodableType() throws {
        let store = try Self.makeStore(notes: 12)
        let r = try ArchivistProcess.run(["migrate", store, "--attribute", "Note.textColor", "--to", "json", "--allow", "NSColor", "--no-backup"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("converted 11"), "\(r.out)")
        for (pk, value) in try Self.column(store, "ZTEXTCOLOR") {
            guard LegacyNotesStoreFixture.hasColor(pk) else { #expect(value == nil); continue }
            let color = try JSONDecoder().decode(Color.self, from: try #require(value))
            let expected = LegacyNotesStoreFixture.color(pk)
            #expect(color.red == Double(expected.red) && color.green == Double(expected.green) && color.blue == Double(expected.blue), "Z_PK \(pk)")
        }
        let codegen = try ArchivistProcess.run(["codegen", store, "--attribute", "Note.textColor"])
        #expect(codegen.status == 0, "\(codegen.err)")
        #expect(codegen.out.contains("var red: Double"), "\(codegen.out)")
        // The messages' text, migrated to JSON: each is the note's string.
        let body = try ArchivistProcess.run(["migrate", store, "--attribute", "Note.body", "--to", "json",
                                             "--allow", "NSMutableAttributedString,NSMutableString,NSFont,NSLink", "--no-backup"])
        #expect(body.status == 0, "\(body.err)\(body.out)")
        for (pk, value) in try Self.column(store, "ZBODY") {
            #expect(try JSONDecoder().decode(String.self, from: try #require(value)) == LegacyNotesStoreFixture.text(pk))
        }
    }

    @Test func migrateToArchiveMakesKeyedArchivesTheSecureTransformerReadsAndNamesTheModelChange() throws {
        let store = try Self.makeStore(notes: 10)
        let r = try ArchivistProcess.run(["migrate", store, "--attribute", "Note.tags", "--to", "archive", "--no-backup"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("converted 10"), "\(r.out)")
        #expect(r.out.contains("Note.tags: transformer NSUnarchiveFromData → NSSecureUnarchiveFromData"), "\(r.out)")
        for (pk, value) in try Self.column(store, "ZTAGS") {
            let bytes = try #require(value)
            #expect(bytes.starts(with: Array("bplist00".utf8)))
            // Foundation reads the new value with secure coding, to the note's tags.
            let tags = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: bytes) as? [String]
            #expect(tags == LegacyNotesStoreFixture.tags(pk))
        }
        // Now keyed: the default list accepts them, and the audit no longer asks for a migration.
        let check = try ArchivistProcess.run(["scan", store, "--format", "json"])
        #expect(check.out.contains("\"keyedArchiveBinary\":10") || check.out.contains("\"keyedArchiveBinary\" : 10"), "\(check.out)")
        let audit = try ArchivistProcess.run(["model", store, "--audit"])
        #expect(!audit.out.contains("first: archivist migrate STORE --attribute Note.tags"), "\(audit.out)")
        #expect(audit.out.contains("first: archivist migrate STORE --attribute Note.textColor"), "\(audit.out)")
        // A second run has nothing left to do.
        let again = try ArchivistProcess.run(["migrate", store, "--attribute", "Note.tags", "--to", "archive", "--no-backup"])
        #expect(again.status == 0)
        #expect(again.out.contains("converted 0"), "\(again.out)")
    }

    /// The promise a user relies on: whenever the process dies, each value is the old
    /// typedstream or the new keyed archive of the same objects, and a rerun finishes the job.
    @Test func aKillNineMidMigrationToArchiveLeavesEveryValueOldOrNewAndARerunFinishes() throws {
        let notes = 30_000
        let store = try Self.makeStore(notes: notes)
        let process = Process()
        process.executableURL = ArchivistProcess.executable
        process.arguments = ["migrate", store, "--attribute", "Note.body", "--to", "archive", "--no-backup", "--batch-size", "500"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var committed = 0
        while process.isRunning, committed == 0, Date() < deadline {
            usleep(20_000)
            committed = (try? Self.column(store, "ZBODY").filter { $0.value?.starts(with: Array("bplist".utf8)) == true }.count) ?? 0
        }
        let killedWhileRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(killedWhileRunning, "the migration ended before it could be killed; use more rows")

        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: store, configuration: configuration)
        #expect(try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        try queue.close()
        var old = 0, new = 0
        let converter = ValueConverter(options: MigrationOptions(target: .json, allowList: .transformerDefault(adding: ["NSMutableAttributedString", "NSMutableString", "NSFont", "NSLink"])))
        for (pk, value) in try Self.column(store, "ZBODY") {
            let bytes = try #require(value)
            if bytes.starts(with: Array("bplist".utf8)) { new += 1 } else { old += 1 }
            guard case .converted(let json) = converter.convert(bytes) else {
                Issue.record("Z_PK \(pk) is neither a typedstream nor a keyed archive of the note")
                continue
            }
            #expect(try JSONDecoder().decode(String.self, from: json) == LegacyNotesStoreFixture.text(pk), "Z_PK \(pk)")
        }
        #expect(new > 0)
        #expect(old > 0)
        let rerun = try ArchivistProcess.run(["migrate", store, "--attribute", "Note.body", "--to", "archive", "--no-backup"])
        #expect(rerun.status == 0, "\(rerun.err)")
        #expect(try Self.column(store, "ZBODY").allSatisfy { $0.value?.starts(with: Array("bplist".utf8)) == true })
    }
}

/// A PostgreSQL column of NSArchiver typedstreams (an NSColor in each row, as a Mac app's
/// backend received them): scanned and migrated as a keyed column is.
@Suite(.enabled(if: PostgresTestServer.shouldRun, Comment(rawValue: PostgresTestServer.skipReason)))
struct LegacyPostgresCLITests {
    @Test func aTypedStreamColumnScansAsRefusedAndMigratesToKeyedArchivesAndToJSON() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let url = try PostgresTestServer.requireURL()
        let rows = 200
        for table in ["colors", "colors_json"] {
            try schema.connection.execute("CREATE TABLE \(schema.qualified(table)) (id bigint PRIMARY KEY, payload bytea)")
            let ids = (1 ... rows).map { withUnsafeBytes(of: Int64($0).bigEndian) { Data($0) } }
            let blobs: [Data?] = (1 ... rows).map { LegacyNotesStoreFixture.colorBlob($0) }
            _ = try schema.connection.query("INSERT INTO \(schema.qualified(table)) (id, payload) SELECT * FROM unnest($1::int8[], $2::bytea[])",
                                            [.array(ids, elementType: PostgresType.int8), .array(blobs, elementType: PostgresType.bytea)])
        }
        let table = schema.qualified("colors")
        let scan = try ArchivistProcess.run(["scan", url, "--table", table, "--column", "payload", "--format", "json"])
        #expect(scan.status == 0, "\(scan.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: scan.stdout) as? [String: Any])
        #expect((report["kinds"] as? [String: Int])?["typedStream"] == rows, "\(scan.out)")
        #expect(((report["allowList"] as? [String: Any])?["refused"] as? Int) == rows, "\(scan.out)")

        let keyed = try ArchivistProcess.run(["migrate", url, "--table", table, "--column", "payload", "--to", "archive"])
        #expect(keyed.status == 0, "\(keyed.err)")
        let result = try schema.connection.query("SELECT id, payload FROM \(table) ORDER BY id")
        for row in 0 ..< result.rowCount {
            let bytes = try #require(result.data(row, 1))
            let archive = try KeyedArchive(data: bytes)
            #expect(!archive.isTypedStream)
            #expect(archive.rootObject?.className == "NSColor")
        }
        let json = try ArchivistProcess.run(["migrate", url, "--table", schema.qualified("colors_json"), "--column", "payload", "--to", "json",
                                             "--allow", "NSColor"])
        #expect(json.status == 0, "\(json.err)")
        let migrated = try schema.connection.query("SELECT id, payload FROM \(schema.qualified("colors_json")) ORDER BY id")
        for row in 0 ..< migrated.rowCount {
            let id = Int(migrated.int64(row, 0) ?? 0)
            let color = try JSONDecoder().decode(LegacyStoreCLITests.Color.self, from: try #require(migrated.data(row, 1)))
            #expect(color.red == Double(LegacyNotesStoreFixture.color(id).red), "id \(id)")
        }
    }
}
