import Foundation

/// What one benchmark run measures.
struct BenchmarkSettings {
    /// Dictionaries in the generated array; 205,000 gives about 2.7 million values and an XML
    /// document just over 100 MB.
    var dictionaryCount = 205_000
    /// Records of the process benchmark's second property list, of real-world values
    /// (`BenchmarkInput.makeRealWorld`); 112,000 make a binary file of 34.3 MB.
    var realWorldRecords = 112_000
    /// Each operation is timed this many times and the fastest run kept.
    var repetitions = 3
    var markdown = false
    var skipFoundation = false
    /// Records in the large archive decoded against NSKeyedUnarchiver (about 6 objects each).
    var archiveRecords = 100_000
    /// Records in the archive written against NSKeyedArchiver, whose cost grows faster than
    /// linearly on Linux: 2,000 records are about 10,000 objects.
    var archiveWriteRecords = 2_000
    /// Rows in the generated Core Data store whose tintColor is migrated to JSON.
    var storeRows = 1_000_000
    /// Records of the typedstream benchmark's stream (10 objects each; 10,000 make 100k
    /// objects in about 20 MB), and rows of its two color stores.
    var typedStreamRecords = 10_000
    var typedStreamStoreRows = 100_000
    /// Which groups to run: the in-process groups by default; `process` (the CLI as a whole
    /// process against Foundation, plistutil and xmllint) and `rows` (scan and migrate of
    /// columns, against another build) only when asked for.
    var groups: Set<String> = ["plist", "archive", "store", "keypath"]
    /// The `archivist` executable the process group runs; by default the one beside the bench.
    var cliPath: String?
    /// Another build of `archivist` the rows group runs in the same rounds, and whose outputs
    /// it compares (`--baseline-cli`).
    var baselineCLIPath: String?
    /// The PostgreSQL server the rows group fills and migrates tables on (`--postgres`).
    var postgresURL: String?
    /// The rows group's shapes to run: `store`, `postgres`, or both (`--shapes`).
    var rowShapes: Set<String> = ["store", "postgres"]
    /// When set, only write the generated inputs there (input.bplist, input.xml) and stop.
    var inputsDirectory: String?
}

/// A group of the benchmark, run with the settings it was given.
protocol BenchmarkGroup {
    var settings: BenchmarkSettings { get }
}

extension BenchmarkGroup {
    /// A line of progress on standard error (standard output is the report).
    func log(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

    /// The folder the group's inputs are written to: `--write-inputs DIR` when given, else a new
    /// one in TMPDIR named after the group, for this run only (`removeInputsDirectory`).
    func makeInputsDirectory(_ group: String) -> String {
        let directory = settings.inputsDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("archivist-\(group)-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Removes the folder `makeInputsDirectory` made, unless it is `--write-inputs`'s.
    func removeInputsDirectory(_ directory: String) {
        if settings.inputsDirectory == nil { try? FileManager.default.removeItem(atPath: directory) }
    }
}
