import Foundation
import KeyedArchive
import PostgresFixtures
import PostgresTable
import Testing

/// `scan` and `migrate` on a real PostgreSQL server (scripts/postgres-test-server), run as a
/// user runs them: the built executable, its output and exit status, and the table afterwards.
@Suite(.enabled(if: PostgresTestServer.shouldRun, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresCLITests {
    static let allow = MixedBlobTable.allowedClasses.flatMap { ["--allow", $0] }

    static func url() throws -> String { try PostgresTestServer.requireURL() }

    static func json(_ result: ArchivistProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.out)\n\(result.err)")
    }

    /// Every row's id and payload.
    static func rows(_ connection: PostgresConnection, _ table: String) throws -> [Int64: Data?] {
        let result = try connection.query("SELECT id, payload FROM \(table) ORDER BY id")
        var rows: [Int64: Data?] = [:]
        for row in 0..<result.rowCount { rows[result.int64(row, 0) ?? -1] = result.data(row, 1) }
        return rows
    }

    /// An audit of every write to `table`: who wrote (application_name), and md5 checksums of
    /// the old and new values, in the order the writes happened.
    static func audit(_ connection: PostgresConnection, _ schema: String, _ table: String) throws {
        try connection.execute("""
            CREATE TABLE \(schema).checksums (seq bigserial PRIMARY KEY, id bigint, writer text, old_md5 text, new_md5 text,
                old_is_archive boolean, new_is_json boolean);
            CREATE FUNCTION \(schema).record_write() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO \(schema).checksums (id, writer, old_md5, new_md5, old_is_archive, new_is_json)
                VALUES (NEW.id, current_setting('application_name'), md5(OLD.payload), md5(NEW.payload),
                        substring(OLD.payload from 1 for 6) = '\\x62706c697374'::bytea, substring(NEW.payload from 1 for 1) = '\\x7b'::bytea);
                RETURN NEW;
            END $$;
            CREATE TRIGGER record_write AFTER UPDATE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(schema).record_write();
            """)
    }

    /// The migrated JSON decodes to what `archivist unarchive` makes of the original.
    static func unarchived(_ original: Data) throws -> Data {
        let file = ArchivistProcess.temporaryFile("original.bplist")
        try original.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try ArchivistProcess.run(["unarchive", file, "--to", "json"] + allow)
        #expect(result.status == 0, "\(result.err)")
        return result.stdout
    }

    @Test func scanCountsEachKindOfAHundredThousandMixedRowsAndMigrateConvertsExactlyTheArchives() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let fixture = MixedBlobTable(rowCount: 100_000)
        let table = schema.qualified("payloads")
        try fixture.create(table, on: schema.connection)
        let counts = fixture.counts
        let originals = try Self.rows(schema.connection, table)

        let scan = try ArchivistProcess.run(["scan", try Self.url(), "--table", table, "--column", "payload", "--format", "json"])
        #expect(scan.status == 0, "\(scan.err)")
        let report = try Self.json(scan)
        #expect(report["rows"] as? Int == 100_000)
        let kinds = try #require(report["kinds"] as? [String: Int])
        #expect(kinds == [
            "keyedArchiveBinary": counts[.uiColor]! + counts[.stringArray]! + counts[.seed]! + counts[.cycle]!,
            "json": counts[.json]!, "null": counts[.null]!, "image": counts[.png]!,
            "propertyList": counts[.plainPlist]!, "unreadable": counts[.damaged]!,
        ])
        let classes = try #require(report["classes"] as? [String: Int])
        #expect(classes["UIColor"] == counts[.uiColor])
        #expect(classes["NSArray"] == counts[.stringArray]! + counts[.seed]! / 5)
        let verdict = try #require(report["allowList"] as? [String: Any])
        #expect(verdict["suggestedAdditions"] as? [String] == ["UIColor", "Eventail.SerializableColor", "MyApp.ConfigurationBox",
                                                                "MyApp.Node", "MyApp.UserDetails"])

        let migrate = try ArchivistProcess.run(["migrate", try Self.url(), "--table", table, "--column", "payload", "--to", "json",
                                                "--workers", "2", "--format", "json"] + Self.allow)
        #expect(migrate.status == 1, "rows that are not archives are failures: \(migrate.err)")
        let result = try Self.json(migrate)
        #expect(result["rows"] as? Int == 100_000)
        #expect(result["converted"] as? Int == counts[.uiColor]! + counts[.stringArray]! + counts[.seed]!)
        #expect(result["skippedBecause"] as? [String: Int] == ["null": counts[.null]!, "alreadyConverted": counts[.json]!])
        #expect(result["failedBecause"] as? [String: Int] == ["notAnArchive": counts[.png]! + counts[.plainPlist]!,
                                                              "unreadable": counts[.damaged]!, "unmappable": counts[.cycle]!])
        let failures = try #require(result["failures"] as? [[String: Any]])
        #expect(failures.first?["key"] as? Int == 90, "failures are listed with their key, in key order")

        // Every converted value is what `unarchive` makes of the original: checked through the
        // CLI for each distinct seed and a sample of the rest, by meaning for every row.
        let migrated = try Self.rows(schema.connection, table)
        var checkedByCLI: Set<Data> = []
        for id in 1...100_000 {
            let original = originals[Int64(id)] ?? nil
            let value = migrated[Int64(id)] ?? nil
            let kind = MixedBlobTable.kind(of: id)
            guard kind.isConvertible else {
                #expect(value == original, "id \(id) is left as it was")
                continue
            }
            let new = try #require(value, "id \(id)")
            switch kind {
            case .uiColor:
                #expect(try JSONDecoder().decode(MixedBlobTable.Color.self, from: new).matches(MixedBlobTable.color(of: id)), "id \(id)")
            case .stringArray:
                #expect(try JSONDecoder().decode([String].self, from: new) == MixedBlobTable.strings(of: id), "id \(id)")
            default:
                break
            }
            let original_ = try #require(original)
            if kind == .seed || id % 9_973 == 0, checkedByCLI.insert(original_).inserted {
                #expect(new == (try Self.unarchived(original_)), "id \(id)")
            }
        }
        #expect(checkedByCLI.count >= 10)
    }

    @Test func twoShardProcessesAndTheAppWritingAtOnceLoseNothingAndConvertNothingTwice() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let rows = 20_000
        let table = schema.qualified("colors")
        let values = MixedBlobTable.Values()
        // Only UIColor archives, so every row is the app's or converts.
        try schema.connection.execute("CREATE TABLE \(table) (id bigint PRIMARY KEY, payload bytea)")
        let ids = (1...rows).map { withUnsafeBytes(of: Int64($0).bigEndian) { Data($0) } }
        let blobs = try (1...rows).map { try values.colorArchive(MixedBlobTable.color(of: $0)) as Data? }
        _ = try schema.connection.query("INSERT INTO \(table) SELECT * FROM unnest($1::int8[], $2::bytea[])",
                                        [.array(ids, elementType: PostgresType.int8), .array(blobs, elementType: PostgresType.bytea)])
        try Self.audit(schema.connection, schema.name, table)

        func shard(_ k: Int) throws -> Process {
            let process = Process()
            process.executableURL = ArchivistProcess.executable
            process.arguments = ["migrate", try Self.url(), "--table", table, "--column", "payload", "--to", "json", "--shard", "\(k)/2",
                                 "--batch", "200", "--lock-timeout", "200ms", "--format", "json", "--allow", "UIColor"]
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            return process
        }
        let processes = [try shard(1), try shard(2)]
        // The app: new colors (alpha 0.25, which no original has) written to random rows, one
        // transaction each, until both shards are done.
        let app = try PostgresTestServer.connect(applicationName: "app")
        var generator = SystemRandomNumberGenerator()
        var appWrites = 0
        while processes.contains(where: \.isRunning) {
            let id = Int.random(in: 1...rows, using: &generator)
            let color = MixedBlobTable.Color(red: Double(Float(Double(id % 16) / 15)), green: 0, blue: 1, alpha: 0.25)
            _ = try app.query("UPDATE \(table) SET payload = $2 WHERE id = $1", [.int64(Int64(id)), .bytea(try values.colorArchive(color))])
            appWrites += 1
        }
        var converted = 0, changed = 0
        for process in processes {
            process.waitUntilExit()
            let out = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            let err = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            #expect(process.terminationStatus == 0, "\(String(decoding: err, as: UTF8.self))")
            let report = try #require(try JSONSerialization.jsonObject(with: out) as? [String: Any])
            converted += report["converted"] as? Int ?? 0
            changed += (report["skippedBecause"] as? [String: Int])?["changedMeanwhile"] ?? 0
        }
        #expect(appWrites > 50, "the app wrote while the shards ran")

        // The checksum table, write by write: every conversion turned the value the row held at
        // that moment into its JSON (never a stale read over the app's newer value), and never
        // converted a value twice.
        let log = try schema.connection.query("""
            SELECT c.id, c.writer, c.old_is_archive, c.new_is_json, c.old_md5, c.new_md5 FROM \(schema.name).checksums c ORDER BY c.seq
            """)
        var migratorWrites = 0
        var converting: Set<String> = []
        for row in 0..<log.rowCount where log.string(row, 1) == "archivist" {
            migratorWrites += 1
            #expect(log.bool(row, 2) == true, "a conversion read an archive")
            #expect(log.bool(row, 3) == true, "a conversion wrote JSON")
            #expect(converting.insert("\(log.int64(row, 0) ?? 0)/\(log.string(row, 4) ?? "")").inserted, "converted twice")
        }
        #expect(migratorWrites == converted)
        // Each row now holds the app's last archive, or the JSON of the last value it held.
        let final = try Self.rows(schema.connection, table)
        let lastByApp = try schema.connection.query("""
            SELECT DISTINCT ON (id) id, writer, new_md5 FROM \(schema.name).checksums ORDER BY id, seq DESC
            """)
        var lastWriter: [Int64: String] = [:]
        for row in 0..<lastByApp.rowCount { lastWriter[lastByApp.int64(row, 0) ?? 0] = lastByApp.string(row, 1) }
        var appKept = 0
        for id in 1...rows {
            let value = try #require(final[Int64(id)] ?? nil)
            if value.first == UInt8(ascii: "{") {
                let color = try JSONDecoder().decode(MixedBlobTable.Color.self, from: value)
                #expect(color.matches(MixedBlobTable.color(of: id)) || (color.alpha == 0.25 && color.blue == 1), "id \(id)")
            } else {
                #expect(lastWriter[Int64(id)] == "app", "id \(id) holds an archive the app did not write")
                appKept += 1
            }
        }
        // JSON the app's newer archives became, plus the app's archives left: all accounted for.
        #expect(appKept + migratorWrites >= rows - changed)
        // A rerun converts what the app wrote after the shards passed, and nothing else.
        let rerun = try ArchivistProcess.run(["migrate", try Self.url(), "--table", table, "--column", "payload", "--to", "json",
                                              "--allow", "UIColor", "--format", "json"])
        #expect(rerun.status == 0, "\(rerun.err)")
        #expect(try Self.json(rerun)["converted"] as? Int == appKept)
    }

    @Test func aKillNineMidRunThenARerunConvertsTheRestOnceAndTheBackupHoldsEachOldValueOnce() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("payloads")
        try MixedBlobTable(rowCount: 30_000).create(table, on: schema.connection)
        try Self.audit(schema.connection, schema.name, table)
        let originals = try Self.rows(schema.connection, table)
        let arguments = ["migrate", try Self.url(), "--table", table, "--column", "payload", "--to", "json", "--backup-table", "payloads_backup",
                         "--batch", "250", "--workers", "2", "--pause-between-batches", "10ms"] + Self.allow
        let process = Process()
        process.executableURL = ArchivistProcess.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        var committed: Int64 = 0
        while process.isRunning, committed < 1_000, Date() < deadline {
            usleep(20_000)
            committed = (try? schema.connection.query("SELECT count(*)::int8 FROM \(schema.name).checksums").int64(0, 0) ?? 0) ?? 0
        }
        let killedWhileRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(killedWhileRunning, "the migration ended before it could be killed; use more rows")

        // Every value is its original or the conversion of it; each converted row's old value
        // is in the backup, written in the same transaction.
        func checkBackup() throws -> Int {
            let now = try Self.rows(schema.connection, table)
            let backup = try Self.rows(schema.connection, schema.qualified("payloads_backup"))
            var converted = 0
            for (id, value) in now where value != originals[id] ?? nil {
                converted += 1
                #expect(backup[id] == originals[id], "id \(id): its old value is in the backup")
                #expect(value.flatMap { try? JSONSerialization.jsonObject(with: $0, options: .fragmentsAllowed) } != nil, "id \(id) holds JSON")
            }
            #expect(backup.count == converted, "the backup holds exactly the converted rows")
            return converted
        }
        let before = try checkBackup()
        #expect(before > 0)

        let rerun = try ArchivistProcess.run(arguments.filter { $0 != "--pause-between-batches" && $0 != "10ms" } + ["--format", "json"])
        #expect(rerun.status == 1, "the mixed table has rows that are not archives")
        let report = try Self.json(rerun)
        let counts = MixedBlobTable(rowCount: 30_000).counts
        let convertible = counts[.uiColor]! + counts[.stringArray]! + counts[.seed]!
        #expect(report["converted"] as? Int == convertible - before)
        #expect(try checkBackup() == convertible)
        let twice = try schema.connection.query("SELECT count(*)::int8 FROM (SELECT id FROM \(schema.name).checksums GROUP BY id HAVING count(*) > 1) x")
        #expect(twice.int64(0, 0) == 0, "no row was converted twice")
    }

    @Test func aSelectOnlyRoleScansAndCannotMigrate() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("payloads")
        try MixedBlobTable(rowCount: 500).create(table, on: schema.connection)
        let role = "reader_\(schema.name)"
        let password = "Rd-\(UUID().uuidString.prefix(8))"
        try schema.connection.execute("""
            CREATE ROLE \(role) LOGIN PASSWORD '\(password)';
            GRANT USAGE ON SCHEMA \(schema.name) TO \(role);
            GRANT SELECT ON \(table) TO \(role);
            """)
        defer { try? schema.connection.execute("DROP OWNED BY \(role); DROP ROLE \(role)") }
        let url = try PostgresTestServer.url(user: role, password: password)
        let before = try Self.rows(schema.connection, table)

        let scan = try ArchivistProcess.run(["scan", url, "--table", table, "--column", "payload", "--format", "json"])
        #expect(scan.status == 0, "\(scan.err)")
        #expect(try Self.json(scan)["rows"] as? Int == 500)

        let migrate = try ArchivistProcess.run(["migrate", url, "--table", table, "--column", "payload", "--to", "json"] + Self.allow)
        #expect(migrate.status == 1)
        #expect(migrate.err.contains("role \(role) may not UPDATE \(table).payload"), "\(migrate.err)")
        #expect(migrate.out.isEmpty)
        let backup = try ArchivistProcess.run(["migrate", url, "--table", table, "--column", "payload", "--to", "json",
                                               "--backup-table", "kept"] + Self.allow)
        #expect(backup.status == 1)
        #expect(try Self.rows(schema.connection, table) == before)
        for output in [scan.out, scan.err, migrate.out, migrate.err, backup.err] { #expect(!output.contains(password)) }
    }

    @Test func aWrongPasswordFailsCleanlyWithoutPrintingIt() throws {
        let parts = try PostgresTestServer.parts()
        let wrong = "NotThe-\(UUID().uuidString.prefix(12))"
        let url = try PostgresTestServer.url(user: parts.user, password: wrong)
        for verb in [["scan"], ["migrate", "--to", "json"], ["migrate", "--to", "json", "--status"]] {
            let result = try ArchivistProcess.run([verb[0], url, "--table", "t", "--column", "c"] + verb.dropFirst())
            #expect(result.status == 1)
            #expect(result.err.hasPrefix("archivist: postgres://\(parts.user)@\(parts.host):\(parts.port)/\(parts.database): cannot connect:"), "\(result.err)")
            #expect(result.err.contains("password authentication failed"))
            #expect(result.out.isEmpty)
            #expect(!result.err.contains(wrong) && !result.out.contains(wrong))
        }
        // PGPASSWORD, wrong, is not printed either.
        let fromEnvironment = try ArchivistProcess.run(["scan", "postgres://\(parts.user)@\(parts.host):\(parts.port)/\(parts.database)",
                                                        "--table", "t", "--column", "c"], environment: ["PGPASSWORD": wrong])
        #expect(fromEnvironment.status == 1)
        #expect(!fromEnvironment.err.contains(wrong))
    }

    @Test(.enabled(if: ArchivistProcess.hasTerminal, "needs script(1) to give a terminal"))
    func theRightPasswordIsNeverShownEitherNotEvenOnTheProgressLine() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("payloads")
        try MixedBlobTable(rowCount: 3_000).create(table, on: schema.connection)
        let parts = try PostgresTestServer.parts()
        let screen = try ArchivistProcess.runOnTerminal(["migrate", try Self.url(), "--table", table, "--column", "payload", "--to", "json",
                                                         "--batch", "100"] + Self.allow)
        #expect(screen.contains("rows/s"), "the progress line was drawn")
        #expect(screen.contains("converted"))
        #expect(!screen.contains(parts.password))
        let missing = try ArchivistProcess.run(["scan", try Self.url(), "--table", "\(schema.name).nothing", "--column", "payload"])
        #expect(!missing.err.contains(parts.password))
    }

    @Test func badRequestsGetAClearMessageAndWriteNothing() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("payloads")
        try MixedBlobTable(rowCount: 200).create(table, on: schema.connection)
        try schema.connection.execute("ALTER TABLE \(table) ADD COLUMN n integer, ADD COLUMN j jsonb")
        let before = try Self.rows(schema.connection, table)
        let url = try Self.url()
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["--table", table, "--column", "payload", "--shard", "3/2"], 64, "--shard 3/2: K must be from 1 to N"),
            (["--table", "\(schema.name).missing", "--column", "payload"], 1, "no table \(schema.name).missing"),
            (["--table", table, "--column", "missing"], 1, "no column missing"),
            (["--table", table, "--column", "n"], 1, "n is integer; scan and migrate read bytea or text columns"),
            (["--table", table, "--column", "payload", "--into", "n"], 1, "--into n is integer"),
            (["--table", table, "--column", "payload", "--into", "j", "--to", "plist"], 1, "--into j is jsonb, which holds JSON only"),
            (["--table", table], 64, "needs --table [SCHEMA.]TABLE and --column COLUMN"),
            // A column has no Core Data model: its flags are refused, not ignored.
            (["--table", table, "--column", "payload", "--transformer", "ColorTransformer=UIColor"], 64, "a PostgreSQL column has none"),
            (["--table", table, "--column", "payload", "--no-model"], 64, "judge it with --allow or --only"),
        ]
        for (arguments, status, message) in cases {
            let to = arguments.contains("--to") ? [] : ["--to", "json"]
            let result = try ArchivistProcess.run(["migrate", url] + arguments + to + Self.allow)
            #expect(result.status == status, "\(arguments): \(result.err)")
            #expect(result.err.contains(message), "\(arguments): \(result.err)")
        }
        let malformed = try ArchivistProcess.run(["scan", "postgres://someone:Secret99@host:port/db", "--table", "t", "--column", "c"])
        #expect(malformed.status == 1)
        #expect(malformed.err.contains("not a valid PostgreSQL URL"))
        #expect(!malformed.err.contains("Secret99"))
        let unreachable = try ArchivistProcess.run(["scan", "postgres://u:p@127.0.0.1:1/db", "--table", "t", "--column", "c",
                                                    "--connect-timeout", "2s"])
        #expect(unreachable.status == 1)
        #expect(unreachable.err.contains("cannot connect"))
        let scanWithAModel = try ArchivistProcess.run(["scan", url, "--table", table, "--column", "payload", "--model", "App.momd"])
        #expect(scanWithAModel.status == 64)
        #expect(scanWithAModel.err.contains("a PostgreSQL column has none"))
        let onAFile = try ArchivistProcess.run(["scan", "store.sqlite", "--table", "t"])
        #expect(onAFile.status == 64)
        #expect(try Self.rows(schema.connection, table) == before)
    }

    @Test func statusCountsWhatEachShardStillHasToDo() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("payloads")
        let fixture = MixedBlobTable(rowCount: 2_000)
        try fixture.create(table, on: schema.connection)
        let url = try Self.url()
        let base = ["migrate", url, "--table", table, "--column", "payload", "--to", "json"] + Self.allow
        func status() throws -> [[String: Any]] {
            let result = try ArchivistProcess.run(base + ["--status", "--shard", "1/3", "--format", "json"])
            #expect(result.status == 0, "\(result.err)")
            return try #require(try Self.json(result)["shards"] as? [[String: Any]])
        }
        let first = try status()
        #expect(first.count == 3)
        let counts = fixture.counts
        let archives = counts[.uiColor]! + counts[.stringArray]! + counts[.seed]! + counts[.cycle]!
        #expect(first.reduce(0) { $0 + ($1["toConvert"] as? Int ?? 0) } == archives)
        #expect(first.reduce(0) { $0 + ($1["rows"] as? Int ?? 0) } == 2_000)
        let migrated = try ArchivistProcess.run(base + ["--shard", "2/3", "--format", "json"])
        let converted = try Self.json(migrated)["converted"] as? Int ?? 0
        let second = try status()
        #expect(second[0]["toConvert"] as? Int == first[0]["toConvert"] as? Int)
        #expect(second[2]["toConvert"] as? Int == first[2]["toConvert"] as? Int)
        #expect((second[1]["toConvert"] as? Int ?? -1) == (first[1]["toConvert"] as? Int ?? 0) - converted)
    }

    @Test func aUnixSocketURLScansWithoutAPassword() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("payloads")
        try MixedBlobTable(rowCount: 100).create(table, on: schema.connection)
        let parts = try PostgresTestServer.parts()
        let socket = try #require(PostgresTestServer.socketDirectory)
        let result = try ArchivistProcess.run(["scan", "postgres:///\(parts.database)?host=\(socket)&port=\(parts.port)&user=\(parts.user)",
                                               "--table", table, "--column", "payload"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains(": 100 rows"))
    }
}
