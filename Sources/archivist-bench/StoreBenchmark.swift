import ArchivePayload
import CoreDataStore
import StoreFixtures
import Foundation

/// Times `AttributeMigrator` on a generated BowTie store (UIColor tintColor → JSON) and, when a
/// Python NSKeyedArchiver decoder is installed, the Python route users take today on a copy of
/// the same store (`scripts/python-migrate-peer.py`).
///
/// Each migration runs in a fresh child process (`--measure-store-migration`), so its time and
/// peak resident memory (VmHWM) are its own and not the generator's. A second, ten-times smaller
/// store shows that the peak does not grow with the number of rows.
struct StoreBenchmark: BenchmarkGroup {
    var settings: BenchmarkSettings

    /// What a child process reports about one migration.
    struct Measurement {
        var seconds: Double
        var peakBytes: Int
        var converted: Int
        var failed: Int
    }

    func run() -> [PropertyListBenchmark.Row] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-store-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = settings.storeRows
        let store = directory.appendingPathComponent("BowTies.sqlite").path
        log("store: generating \(rows) BowTie rows…")
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            try BowTieStoreFixture(rowCount: rows).write(to: store)
        } catch {
            log("store: cannot generate the store: \(error)")
            return []
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: store)[.size] as? Int) ?? 0
        log(String(format: "store: generated %@ in %.1f s", mb(size), Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        let decoders = Self.pythonDecoders()
        var copies: [String: String] = [:]
        for decoder in decoders {
            let copy = directory.appendingPathComponent("python-\(decoder).sqlite").path
            do {
                try FileManager.default.copyItem(atPath: store, toPath: copy)
                copies[decoder] = copy
            } catch {
                log("store: cannot copy the store for Python: \(error)")
            }
        }

        log("store: migrating tintColor to JSON in a child process…")
        guard let ours = Self.measureInChild(store) else {
            log("store: the migration failed")
            return []
        }
        var note = "peak RSS \(mb(ours.peakBytes))"
        let small = max(1, rows / 10)
        let smallStore = directory.appendingPathComponent("BowTies-small.sqlite").path
        if (try? BowTieStoreFixture(rowCount: small).write(to: smallStore)) != nil, let smaller = Self.measureInChild(smallStore) {
            note += "; \(smaller.peakBytes > 0 ? mb(smaller.peakBytes) : "?") at \(Self.decimal(small)) rows"
        }
        var result: [PropertyListBenchmark.Row] = []
        let operation = "migrate \(Self.decimal(rows)) UIColor rows to JSON (\(Self.decimal(ours.converted)) converted, verified; one run each; \(note))"
        if decoders.isEmpty {
            log("store: no Python NSKeyedArchiver decoder (pip install nska-deserialize bpylist2): peer skipped")
            result.append(.init(operation: operation + ", no Python peer installed", ours: ours.seconds, foundation: nil))
            return result
        }
        for decoder in decoders {
            guard let copy = copies[decoder] else { continue }
            log("store: the Python route with \(decoder) on a copy…")
            if let python = Self.runPython(decoder: decoder, store: copy) {
                result.append(.init(operation: operation + "; peer: Python sqlite3 + \(decoder == "nska" ? "nska-deserialize" : decoder) + json.dumps, peak RSS \(mb(python.peakBytes))",
                                    ours: ours.seconds, foundation: python.seconds))
            }
        }
        if result.isEmpty { result.append(.init(operation: operation, ours: ours.seconds, foundation: nil)) }
        return result
    }

    /// `--measure-store-migration PATH`: migrates in this (fresh) process and prints
    /// `seconds peakBytes converted failed`.
    static func measureMigration(path: String) {
        let options = MigrationOptions(target: .json, allowList: .transformerDefault(adding: ["UIColor"]), backup: .none)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let result = try AttributeMigrator(options: options).migrate(path: path, attribute: "BowTie.tintColor")
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print("\(seconds) \(MemoryProbe.peakBytes()) \(result.converted) \(result.failedCount)")
        } catch {
            FileHandle.standardError.write(Data("archivist-bench: \(path): \(error)\n".utf8))
            exit(1)
        }
    }

    static func measureInChild(_ store: String) -> Measurement? {
        guard let (output, status) = ChildProcess.run(ChildProcess.benchmark, ["--measure-store-migration", store]) else { return nil }
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard status == 0, fields.count >= 4, let seconds = Double(fields[0]), let peak = Int(fields[1]),
              let converted = Int(fields[2]), let failed = Int(fields[3]) else { return nil }
        return Measurement(seconds: seconds, peakBytes: peak, converted: converted, failed: failed)
    }

    /// The decoders `python3` can import, in the order they are timed.
    static func pythonDecoders() -> [String] {
        [("bpylist2", "bpylist2"), ("nska", "nska_deserialize")].compactMap { name, module in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", "import \(module)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { return nil }
            process.waitUntilExit()
            return process.terminationStatus == 0 ? name : nil
        }
    }

    /// `scripts/python-migrate-peer.py`, found from this source file's place in the repository.
    static let pythonScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/python-migrate-peer.py").path

    static func runPython(decoder: String, store: String) -> Measurement? {
        guard FileManager.default.fileExists(atPath: pythonScript) else { return nil }
        let run = ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", pythonScript, store, "--decoder", decoder])
        guard let (output, status) = run else { return nil }
        // The script's own clock, like ours: from opening the store to closing it.
        guard status == 0,
              let line = try? JSONSerialization.jsonObject(with: output) as? [String: Any],
              let seconds = line["seconds"] as? Double else { return nil }
        return Measurement(seconds: seconds, peakBytes: ((line["peakRSSKiB"] as? Int) ?? 0) * 1024,
                           converted: line["converted"] as? Int ?? 0, failed: line["failed"] as? Int ?? 0)
    }

    static func decimal(_ n: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_US")
        return formatter.string(from: NSNumber(value: n)) ?? String(n)
    }

    func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
