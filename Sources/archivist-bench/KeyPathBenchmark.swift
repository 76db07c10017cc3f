import Foundation
import PropertyList

/// Times `archivist get` and `archivist set` on the benchmark's binary plist, each as a whole
/// process, against a whole process that parses the file with Foundation and looks the key up
/// (`--foundation-get`), and against Archivist's own full read and write (`convert`).
///
/// `get` reads only the objects on the path, so it should beat the full parse by far; an edit
/// must read and write everything, so it should cost no more than the full read and write.
struct KeyPathBenchmark: BenchmarkGroup {
    var settings: BenchmarkSettings

    /// One child process: its wall time, exit status and standard output.
    struct Run {
        var seconds: Double
        var status: Int32
        var output: String
    }

    /// `archivist-bench --foundation-get FILE KEYPATH`: what a program using Foundation does to
    /// read one value: parse the whole file, then follow the path.
    static func foundationGet(path: String, keyPath: String) {
        guard let data = FileManager.default.contents(atPath: path),
              var current = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) else { exit(1) }
        for component in PropertyListKeyPath(keyPath).components {
            if let array = current as? [Any], let i = Int(component), array.indices.contains(i) {
                current = array[i]
            } else if let dictionary = current as? [String: Any], let next = dictionary[component] {
                current = next
            } else {
                exit(1)
            }
        }
        print(current)
        exit(0)
    }

    func run() -> [PropertyListBenchmark.Row] {
        let bench = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        let archivist = bench.deletingLastPathComponent().appendingPathComponent("archivist").path
        guard FileManager.default.isExecutableFile(atPath: archivist) else {
            log("keypath: no archivist beside \(bench.path); build it first (swift build -c release --product archivist)")
            return []
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-keypath-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        log("keypath: generating \(settings.dictionaryCount) dictionaries…")
        let value = BenchmarkInput.make(dictionaries: settings.dictionaryCount)
        let input = directory.appendingPathComponent("input.bplist").path
        let data = BinaryPropertyListWriter().write(value)
        guard FileManager.default.createFile(atPath: input, contents: data) else { return [] }
        let index = settings.dictionaryCount * 3 / 5
        let keyPath = "\(index).title"
        let expected = value.value(at: PropertyListKeyPath(keyPath))?.rawText ?? ""
        let size = String(format: "%.1f MB", Double(data.count) / 1_000_000)

        log("keypath: get \(keyPath) (\(settings.repetitions) runs)…")
        guard let get = best({ Self.spawn(archivist, ["get", input, keyPath]) }), get.output == expected + "\n" else {
            log("keypath: archivist get failed")
            return []
        }
        var rows: [PropertyListBenchmark.Row] = []
        var getRow = PropertyListBenchmark.Row(operation: "`get` of one key from the binary plist (\(size)), whole process, peak RSS \(mb(Self.peakMemory(archivist, ["get", input, keyPath])))",
                                               ours: get.seconds, foundation: nil)
        if !settings.skipFoundation {
            log("keypath: Foundation parse and look-up in a child process (one run, then one for its memory)…")
            if let foundation = Self.spawn(bench.path, ["--foundation-get", input, keyPath]), foundation.status == 0 {
                getRow.foundation = foundation.seconds
                getRow.operation += "; Foundation: PropertyListSerialization of the whole file, peak RSS \(mb(Self.peakMemory(bench.path, ["--foundation-get", input, keyPath])))"
            }
        }
        rows.append(getRow)

        log("keypath: set one value in place vs convert (read and write everything)…")
        let copy = directory.appendingPathComponent("edited.bplist").path
        let converted = directory.appendingPathComponent("converted.bplist").path
        try? FileManager.default.copyItem(atPath: input, toPath: copy)
        // Interleaved, so that a change in the machine's load falls on both alike.
        var edit: Run?, convert: Run?
        for _ in 0..<settings.repetitions {
            guard let e = Self.spawn(archivist, ["set", copy, keyPath, "--string", "renamed"]), e.status == 0,
                  let c = Self.spawn(archivist, ["convert", input, "--to", "binary", "-o", converted]), c.status == 0 else { break }
            if edit == nil || e.seconds < edit!.seconds { edit = e }
            if convert == nil || c.seconds < convert!.seconds { convert = c }
        }
        if let edit, let convert, edit.status == 0, convert.status == 0 {
            let editPeak = Self.peakMemory(archivist, ["set", copy, keyPath, "--string", "renamed"])
            let convertPeak = Self.peakMemory(archivist, ["convert", input, "--to", "binary", "-o", converted])
            rows.append(.init(operation: "`set` of one value in that file, in place, whole process (peak RSS \(mb(editPeak))); peer: Archivist's own full read and write, `convert --to binary -o` (peak RSS \(mb(convertPeak)))",
                              ours: edit.seconds, foundation: convert.seconds))
        }
        return rows
    }

    /// The fastest of `settings.repetitions` runs.
    func best(_ body: () -> Run?) -> Run? {
        var best: Run?
        for _ in 0..<settings.repetitions {
            guard let run = body(), run.status == 0 else { return nil }
            if best == nil || run.seconds < best!.seconds { best = run }
        }
        return best
    }

    /// The peak resident memory of one run of `executable`, measured by GNU time, which forks
    /// it afresh: a child spawned from this process would inherit this process's own high-water
    /// mark (Linux carries it across exec), which holds the generated document.
    static func peakMemory(_ executable: String, _ arguments: [String]) -> Int? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-bench-time-\(getpid())").path
        defer { unlink(report) }
        guard let run = spawn("/usr/bin/time", ["-f", "%M", "-o", report, executable] + arguments), run.status == 0,
              let text = try? String(contentsOfFile: report, encoding: .utf8),
              let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "") else { return nil }
        return kilobytes * 1024
    }

    /// Runs `executable` to the end, timing it from spawn to exit.
    static func spawn(_ executable: String, _ arguments: [String]) -> Run? {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-bench-out-\(getpid())-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid else { return nil }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Run(seconds: seconds, status: exited, output: text)
    }

    func mb(_ bytes: Int?) -> String { bytes.map { String(format: "%.1f MB", Double($0) / 1_000_000) } ?? "not measured (no /usr/bin/time)" }
}
