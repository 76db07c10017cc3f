import Foundation
import GRDB
import PostgresFixtures
import PostgresTable
import StoreFixtures

/// `archivist-bench --only rows`: `scan` and `migrate` of a column of small archives, the CLI
/// as a whole process, on four shapes of `--store-rows` rows each:
///
/// - a BowTie store whose tint colors come from a palette of 4,096 (`BowTieStoreFixture`, as
///   the in-process store figure uses it), and one where every row's tint and photo is its own
///   (`distinctColors`, no NULL tint): nothing for `RepeatedValueMemo` to find again;
/// - a PostgreSQL column of UIColor archives from the same palette, and one where every value is
///   distinct (`MixedBlobTable`, colors only), on the server `--postgres URL` names (or
///   `ARCHIVIST_POSTGRES_URL`); without one, those two are left out.
///
/// With `--baseline-cli PATH` (another build of `archivist`, such as the merge base built in a
/// scratch path), every command runs for both in the same rounds, one after the other, so the
/// ratios are taken under the same load; and the outputs are compared: each scan's report (its
/// timings aside) and each migrated column, row by row, must be the same for both.
///
/// Each migration starts from the same state, restored before each run outside the timing: the
/// store copied afresh (migrated with `--no-backup`: the backup copies the file, whatever its
/// rows hold), the table copied afresh, then `VACUUM ANALYZE` and `CHECKPOINT`. PostgreSQL
/// migrations run with `--workers 2`. Inputs stay in `--write-inputs DIR` when given, and are
/// reused from there by the next run. `--shapes store` or `--shapes postgres` runs one kind only.
struct RowsBenchmark: BenchmarkGroup {
    var settings: BenchmarkSettings

    /// One column to scan and migrate, with the commands run on it.
    final class Shape {
        let name: String
        let kind: Kind
        /// The store file, or the PostgreSQL table, that is scanned and copied for migrations.
        let source: String
        var scans: [(cli: String, command: ProcessRounds.Command, output: String)] = []
        var migrations: [(cli: String, command: ProcessRounds.Command, output: String, work: String)] = []

        enum Kind { case store, postgres }

        init(name: String, kind: Kind, source: String) {
            self.name = name
            self.kind = kind
            self.source = source
        }
    }

    func run() {
        guard let cli = ProcessBenchmark(settings: settings).archivistPath() else {
            log("rows benchmark: no archivist executable beside archivist-bench; build it with swift build -c release --product archivist, or give --cli PATH")
            return
        }
        var clis = [("A", cli)]
        if let baseline = settings.baselineCLIPath { clis.append(("B", baseline)) }
        let rows = settings.storeRows
        let directory = settings.inputsDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("archivist-rows-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { if settings.inputsDirectory == nil { try? FileManager.default.removeItem(atPath: directory) } }

        var shapes: [Shape] = []
        for distinct in [false, true] where settings.rowShapes.contains("store") {
            let path = "\(directory)/bowties-\(distinct ? "distinct" : "palette")-\(rows).sqlite"
            guard makeStore(path, rows: rows, distinct: distinct) else { return }
            shapes.append(Shape(name: "store, \(distinct ? "every value distinct" : "4,096-color palette")", kind: .store, source: path))
        }
        let url = settings.postgresURL ?? ProcessInfo.processInfo.environment["ARCHIVIST_POSTGRES_URL"]
        var connection: PostgresConnection?
        if !settings.rowShapes.contains("postgres") {
            // Not asked for.
        } else if let url {
            do {
                let made = try PostgresConnection(url: PostgresURL(url))
                connection = made
                for distinct in [false, true] {
                    let table = "archivist_bench_\(distinct ? "distinct" : "palette")_\(rows)"
                    try makeTable(table, rows: rows, distinct: distinct, on: made)
                    shapes.append(Shape(name: "PostgreSQL, \(distinct ? "every value distinct" : "4,096-color palette")", kind: .postgres, source: table))
                }
            } catch {
                log("rows benchmark: PostgreSQL at \(PostgresURL(url).redacted): \(error); its shapes are left out")
                connection = nil
            }
        } else {
            log("rows benchmark: no --postgres URL and no ARCHIVIST_POSTGRES_URL: the PostgreSQL shapes are left out")
        }

        // The commands, each build's next to the other's, shape by shape.
        let rounds = ProcessRounds()
        for (index, shape) in shapes.enumerated() {
            for (label, path) in clis {
                let output = "\(directory)/scan-\(index)-\(label).json"
                let arguments = shape.kind == .store
                    ? [path, "scan", shape.source, "--format", "json"]
                    : [path, "scan", url ?? "", "--table", shape.source, "--column", "payload", "--allow", "UIColor", "--format", "json"]
                shape.scans.append((label, rounds.add(arguments, stdoutPath: output), output))
            }
            for (label, path) in clis {
                let output = "\(directory)/migrate-\(index)-\(label).json"
                switch shape.kind {
                case .store:
                    let work = "\(directory)/work-\(index)-\(label).sqlite"
                    let arguments = [path, "migrate", work, "--attribute", "BowTie.tintColor", "--to", "json", "--allow", "UIColor", "--no-backup",
                                     "--format", "json"]
                    let command = rounds.add(arguments, stdoutPath: output) { Self.copyStore(shape.source, to: work) }
                    shape.migrations.append((label, command, output, work))
                case .postgres:
                    guard let connection, let url else { continue }
                    let work = "archivist_bench_work_\(index)_\(label.lowercased())"
                    let arguments = [path, "migrate", url, "--table", work, "--column", "payload", "--to", "json", "--allow", "UIColor",
                                     "--workers", "2", "--format", "json"]
                    let command = rounds.add(arguments, stdoutPath: output) { Self.copyTable(shape.source, to: work, on: connection) }
                    shape.migrations.append((label, command, output, work))
                }
            }
        }
        rounds.run(rounds: settings.repetitions, log: log)

        // The outputs of the two builds, compared.
        var checks: [String] = []
        if clis.count == 2 {
            for shape in shapes {
                if shape.scans.count == 2 {
                    let same = Self.report(shape.scans[0].output) == Self.report(shape.scans[1].output)
                    checks.append("\(shape.name), scan reports: \(same ? "identical" : "DIFFERENT")")
                }
                if shape.migrations.count == 2 {
                    let same: Bool? = shape.kind == .store
                        ? Self.sameTintColors(shape.migrations[0].work, shape.migrations[1].work)
                        : connection.flatMap { Self.sameColumns(shape.migrations[0].work, shape.migrations[1].work, on: $0) }
                    let reports = Self.report(shape.migrations[0].output, dropping: ["\"path\"", "\"table\"", "\"file\""])
                        == Self.report(shape.migrations[1].output, dropping: ["\"path\"", "\"table\"", "\"file\""])
                    checks.append("\(shape.name), migrated values: \(same.map { $0 ? "identical" : "DIFFERENT" } ?? "not compared"), reports: \(reports ? "identical" : "DIFFERENT")")
                }
            }
        }
        if let connection {
            for shape in shapes {
                for migration in shape.migrations { try? connection.execute("DROP TABLE IF EXISTS \(migration.work)") }
            }
        }

        let names = clis.map { "\($0.0) = \($0.1)" }.joined(separator: ", ")
        print("Rows: \(StoreBenchmark.decimal(rows)) per shape; whole process, \(settings.repetitions) rounds (median and best of each command), release build; \(names)")
        print("Machine: \(Self.machine()); 1-minute load average during the runs: \(Self.loadRange(rounds))")
        print("")
        print("| shape | command | build | median | best | rows/s (median) | peak memory | \(clis.count == 2 ? "A ÷ B (median) |" : "")")
        print("|---|---|---|---:|---:|---:|---:|\(clis.count == 2 ? "---:|" : "")")
        for shape in shapes {
            for (verb, commands) in [("scan", shape.scans.map { ($0.cli, $0.command) }), ("migrate", shape.migrations.map { ($0.cli, $0.command) })] {
                let medianOfB = commands.first { $0.0 == "B" }?.1.median
                for (label, command) in commands {
                    let median = command.median, best = command.best
                    let rate = median.map { StoreBenchmark.decimal(Int((Double(rows) / $0).rounded())) } ?? "–"
                    var line = "| \(shape.name) | \(verb)\(verb == "migrate" && shape.kind == .postgres ? " --workers 2" : "") | \(label) | "
                    line += median.map { String(format: "%.2f s", $0) } ?? "failed"
                    line += " | " + (best.map { String(format: "%.2f s", $0.seconds) } ?? "–")
                    line += " | \(rate) | " + (best.map { String(format: "%.0f MB", Double($0.peakBytes) / 1e6) } ?? "–") + " |"
                    if clis.count == 2 {
                        line += label == "A" ? (median.flatMap { a in medianOfB.map { String(format: " %.2f |", a / $0) } } ?? " – |") : " |"
                    }
                    print(line)
                }
            }
        }
        if !checks.isEmpty {
            print("")
            for check in checks { print("- \(check)") }
        }
    }

    // MARK: Inputs

    /// Writes the store unless a finished one is there already.
    func makeStore(_ path: String, rows: Int, distinct: Bool) -> Bool {
        let done = path + ".done"
        if FileManager.default.fileExists(atPath: done) { return true }
        log("rows: writing \(path)…")
        var fixture = BowTieStoreFixture(rowCount: rows)
        if distinct {
            fixture.distinctColors = true
            fixture.nullTintColorEvery = 0
        }
        do {
            try fixture.write(to: path, replacing: true)
        } catch {
            log("rows benchmark: cannot write \(path): \(error)")
            return false
        }
        FileManager.default.createFile(atPath: done, contents: Data())
        return true
    }

    /// Creates the table unless it holds `rows` rows already.
    func makeTable(_ table: String, rows: Int, distinct: Bool, on connection: PostgresConnection) throws {
        let exists = try connection.query("SELECT to_regclass($1) IS NOT NULL", [.text(table)]).bool(0, 0) ?? false
        if exists, try connection.query("SELECT count(*) FROM \(table)").int64(0, 0) == Int64(rows) { return }
        log("rows: filling \(table)…")
        try connection.execute("DROP TABLE IF EXISTS \(table)")
        try MixedBlobTable(rowCount: rows, colorsOnly: true, distinctColors: distinct).create(table, on: connection)
        try connection.execute("VACUUM ANALYZE \(table)")
    }

    /// A fresh copy of the store to migrate (its journal files removed first).
    static func copyStore(_ source: String, to work: String) -> Bool {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(work + suffix) }
        return (try? FileManager.default.copyItem(atPath: source, toPath: work)) != nil
    }

    /// A fresh copy of the table to migrate, vacuumed, analyzed and checkpointed.
    static func copyTable(_ source: String, to work: String, on connection: PostgresConnection) -> Bool {
        do {
            try connection.execute("DROP TABLE IF EXISTS \(work)")
            try connection.execute("CREATE TABLE \(work) (id bigint PRIMARY KEY, payload bytea)")
            try connection.execute("INSERT INTO \(work) SELECT * FROM \(source)")
            try connection.execute("VACUUM ANALYZE \(work)")
            try connection.execute("CHECKPOINT")
            return true
        } catch {
            return false
        }
    }

    // MARK: Outputs

    /// A JSON report's lines without its timings (and other lines named in `dropping`).
    static func report(_ path: String, dropping more: [String] = []) -> [Substring] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        let dropped = ["\"seconds\"", "\"elapsed\"", "\"rowsPerSecond\""] + more
        return text.split(separator: "\n").filter { line in !dropped.contains { line.contains($0) } }
    }

    /// Whether two migrated stores hold the same tint colors, row by row.
    static func sameTintColors(_ a: String, _ b: String) -> Bool? {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let first = try DatabaseQueue(path: a, configuration: configuration)
            let second = try DatabaseQueue(path: b, configuration: configuration)
            let sql = "SELECT Z_PK, ZTINTCOLOR FROM ZBOWTIE ORDER BY Z_PK"
            return try first.read { db1 in
                try second.read { db2 in
                    let x = try Row.fetchCursor(db1, sql: sql), y = try Row.fetchCursor(db2, sql: sql)
                    while let r = try x.next() {
                        guard let s = try y.next(), r[0] as Int64 == s[0] as Int64, r[1] as Data? == s[1] as Data? else { return false }
                    }
                    return try y.next() == nil
                }
            }
        } catch {
            return nil
        }
    }

    /// Whether two migrated tables hold the same values, row by row.
    static func sameColumns(_ a: String, _ b: String, on connection: PostgresConnection) -> Bool? {
        let sql = "SELECT count(*) FROM \(a) x FULL JOIN \(b) y USING (id) WHERE x.payload IS DISTINCT FROM y.payload"
        return (try? connection.query(sql).int64(0, 0)).flatMap { $0.map { $0 == 0 } }
    }

    // MARK: The machine

    static func machine() -> String {
        let model = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores (\(model)), \(String(format: "%.0f", memory)) GiB"
    }

    static func loadRange(_ rounds: ProcessRounds) -> String {
        let loads = rounds.loads
        guard let low = loads.min(), let high = loads.max() else { return "not read" }
        return String(format: "%.2f to %.2f", low, high)
    }
}
