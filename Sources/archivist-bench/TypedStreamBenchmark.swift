import FixtureSupport
import Foundation
import StoreFixtures
import TypedStreamFixtures

/// NSArchiver typedstreams as users meet them, whole process (`archivist-bench --only typedstream`):
/// `inspect --format json` and `unarchive --to json` of a 20 MB stream of 100k small objects
/// against pytypedstream (PyPI) decoding the same stream, in the same rounds, with peak memory;
/// and `scan` of a store of typedstream NSColor rows against the same store with keyed NSColor
/// rows.
struct TypedStreamBenchmark: BenchmarkGroup {
    var settings: BenchmarkSettings
    let process: ProcessBenchmark

    init(settings: BenchmarkSettings) {
        self.settings = settings
        process = ProcessBenchmark(settings: settings)
    }

    typealias F = FoundationTypedStreamObjects

    /// An NSMutableArray of records, each an NSMutableDictionary of a title, a rating, a date, a
    /// color and a note's bytes, with shared keys: `records` × 10 objects.
    static func stream(records: Int) -> Data {
        var rng = SplitMix64(seed: 26)
        let keys = ["title", "rating", "updated", "color", "note"].map { F.string($0) }
        var elements: [TypedStreamObjectSpec?] = []
        elements.reserveCapacity(records)
        for i in 0 ..< records {
            let note = (0 ..< 1_700).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let components = (0 ..< 3).map { _ in Float(rng.next() % 1000) / 1000 }
            elements.append(F.dictionary([
                (keys[0], F.mutableString("Record \(i) — \(rng.next() % 100_000)")),
                (keys[1], F.double(Double(rng.next() % 10_000) / 7)),
                (keys[2], F.date(700_000_000 + Double(i) * 37.25)),
                (keys[3], F.color(kind: 1, components: components + [1])),
                (keys[4], F.data(note)),
            ], mutable: true))
        }
        var writer = TypedStreamWriter()
        writer.writeRoot(F.array(elements, mutable: true))
        return writer.data
    }

    func run() {
        guard let cli = process.archivistPath() else {
            log("typedstream benchmark: no archivist executable beside archivist-bench; build it, or give --cli PATH")
            return
        }
        let directory = makeInputsDirectory("typedstream")
        defer { removeInputsDirectory(directory) }
        let records = settings.typedStreamRecords
        log("typedstream: generating \(records) records (\(records * 10) objects)…")
        let data = Self.stream(records: records)
        let stream = directory + "/records.typedstream"
        FileManager.default.createFile(atPath: stream, contents: data)
        log("typedstream: \(data.count) bytes")

        let rowCount = settings.typedStreamStoreRows
        log("typedstream: writing two stores of \(rowCount) NSColor rows (typedstreams, keyed archives)…")
        let typedStore = directory + "/typedstream-colors.sqlite", keyedStore = directory + "/keyed-colors.sqlite"
        do {
            try LegacyNotesStoreFixture(noteCount: rowCount, colorsOnly: true).write(to: typedStore)
            try LegacyNotesStoreFixture(noteCount: rowCount, colorsOnly: true, keyedColors: true).write(to: keyedStore)
        } catch {
            log("typedstream benchmark: cannot write the stores: \(error)")
            return
        }

        let rounds = ProcessRounds()
        let inspect = rounds.add([cli, "inspect", stream, "--format", "json"], stdoutPath: directory + "/inspect.json")
        let unarchive = rounds.add([cli, "unarchive", "--no-check", stream, "--to", "json", "-o", directory + "/out.json"], outputPath: directory + "/out.json")
        // With `--baseline-cli`, another build's same two commands in the same rounds, their
        // outputs compared with this build's after.
        let baseline = settings.baselineCLIPath.map { base in
            (inspect: rounds.add([base, "inspect", stream, "--format", "json"], stdoutPath: directory + "/inspect-baseline.json"),
             unarchive: rounds.add([base, "unarchive", "--no-check", stream, "--to", "json", "-o", directory + "/out-baseline.json"],
                                   outputPath: directory + "/out-baseline.json"))
        }
        let python = process.which("python3")
        let peerDecode = python.map { rounds.add([$0, "-m", "typedstream", "decode", stream], stdoutPath: directory + "/peer.txt") }
        let peerRead = python.map { rounds.add([$0, "-m", "typedstream", "read", stream], stdoutPath: directory + "/peer-read.txt") }
        let scanTyped = rounds.add([cli, "scan", typedStore, "--format", "json"], stdoutPath: directory + "/scan-typed.json")
        let scanKeyed = rounds.add([cli, "scan", keyedStore, "--format", "json"], stdoutPath: directory + "/scan-keyed.json")
        rounds.run(rounds: settings.repetitions, log: log)

        let peerAvailable = peerDecode?.best != nil
        if !peerAvailable { log("typedstream benchmark: pytypedstream is not installed (pip install pytypedstream): no peer figures") }
        func seconds(_ c: ProcessRounds.Command?) -> String { c?.best.map { String(format: "%.3f s", $0.seconds) } ?? "–" }
        func memory(_ c: ProcessRounds.Command?) -> String { c?.best.map { process.mb($0.peakBytes) } ?? "–" }
        func against(_ ours: ProcessRounds.Command, _ peer: ProcessRounds.Command?) -> String {
            guard let o = ours.best, let p = peer?.best else { return "–" }
            return process.ratio(p.seconds, o.seconds)
        }
        print("## Typedstreams, whole process (\(data.count) bytes, \(records * 10) objects; best of \(settings.repetitions))")
        print("")
        print("| command | time | peak memory | memory ÷ input | pytypedstream decode ÷ ours | goal |")
        print("|---|---:|---:|---:|---:|---|")
        for (label, command) in [("archivist inspect --format json", inspect), ("archivist unarchive --to json", unarchive)] {
            let share = command.best.map { String(format: "%.2f×", Double($0.peakBytes) / Double(data.count)) } ?? "–"
            print("| `\(label)` | \(seconds(command)) | \(memory(command)) | \(share) | \(against(command, peerDecode)) | ≥ 50× the peer, ≤ 3× the input |")
        }
        if let baseline {
            for (label, command) in [("baseline inspect --format json", baseline.inspect), ("baseline unarchive --to json", baseline.unarchive)] {
                let share = command.best.map { String(format: "%.2f×", Double($0.peakBytes) / Double(data.count)) } ?? "–"
                print("| `\(label)` | \(seconds(command)) | \(memory(command)) | \(share) | \(against(command, peerDecode)) | |")
            }
        }
        print("| `python3 -m typedstream decode` | \(seconds(peerDecode)) | \(memory(peerDecode)) | | | |")
        print("| `python3 -m typedstream read` (raw events) | \(seconds(peerRead)) | \(memory(peerRead)) | | | |")
        if baseline != nil {
            for (ours, theirs) in [("inspect.json", "inspect-baseline.json"), ("out.json", "out-baseline.json")] {
                let same = FileManager.default.contentsEqual(atPath: directory + "/" + ours, andPath: directory + "/" + theirs)
                print("")
                print("\(ours) and the baseline's \(theirs): \(same ? "byte-identical" : "DIFFERENT")")
            }
        }
        print("")
        print("## Store scan: NSColor rows as typedstreams and as keyed archives (\(rowCount) rows each)")
        print("")
        print("| store | time | rows/s | peak memory |")
        print("|---|---:|---:|---:|")
        func rate(_ c: ProcessRounds.Command) -> Double? { c.best.map { Double(rowCount) / $0.seconds } }
        for (label, command) in [("typedstream NSColor", scanTyped), ("keyed NSColor", scanKeyed)] {
            print("| \(label) | \(seconds(command)) | \(rate(command).map { String(format: "%.0f", $0) } ?? "–") | \(memory(command)) |")
        }
        if let typed = rate(scanTyped), let keyed = rate(scanKeyed) {
            print("")
            print(String(format: "typedstream rows/s ÷ keyed rows/s: %.2f (goal ≥ 0.5)", typed / keyed))
        }
    }
}
