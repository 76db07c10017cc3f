import Foundation
import PropertyList

// archivist-bench: times our property-list codecs against Foundation's PropertyListSerialization
// on the same bytes, in the same run, and prints the ratios and the peak memory of a parse.
//
//   swift run -c release archivist-bench [--dicts N] [--repeat N] [--markdown]
//   archivist-bench --measure-memory binary|xml FILE   (internal: one parse in a fresh process)
//   archivist-bench --measure-store-migration STORE    (internal: one migration in a fresh process)
//   archivist-bench --model [N]                        reading the Teams store's model, N times
//   archivist-bench --row-unit [N] [--repeat R]        scan's and migrate's unit on N distinct UIColor
//                                                       archives, in process, one thread (ns per row)
//   archivist-bench --foundation-get FILE KEYPATH      (internal: Foundation's whole parse and one look-up)
//   archivist-bench --only process [--cli PATH]        (the CLI as a whole process, against Foundation,
//                                                       plistutil and xmllint, in the same run)
//   archivist-bench --only rows [--store-rows N] [--baseline-cli PATH] [--postgres URL] [--shapes store,postgres]
//                               [--repeat N] [--write-inputs DIR]
//                                                      (scan and migrate of stores and PostgreSQL columns, palette
//                                                       and every value distinct, against another build, in rounds)
//   archivist-bench --only shared [--cli PATH] [--baseline-cli PATH] [--archive-records N] [--repeat N]
//                                                      (check, unarchive and inspect of the archive in NSKeyedArchiver's
//                                                       layout and with shared NS.keys, against another build, in rounds)
//   archivist-bench --only typedstream [--cli PATH] [--baseline-cli PATH]
//                                                      (typedstreams as a whole process, against
//                                                       pytypedstream and another build; scan of
//                                                       typedstream rows)
//   archivist-bench --launch STDOUT -- COMMAND…        (internal: times one command and reads its rusage)
//   archivist-bench --foundation-unarchive FILE        (internal: Foundation's side, one process)
//   archivist-bench --foundation-plist FILE none|xml|binary OUT

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--measure-memory" {
    MemoryProbe.run(format: arguments[2], path: arguments[3])
    exit(0)
}
if arguments.count == 4, arguments[1] == "--foundation-get" {
    KeyPathBenchmark.foundationGet(path: arguments[2], keyPath: arguments[3])
}
if arguments.count == 3, arguments[1] == "--measure-store-migration" {
    StoreBenchmark.measureMigration(path: arguments[2])
    exit(0)
}

if arguments.count >= 2, arguments[1] == "--row-unit" {
    let repetitions = arguments.firstIndex(of: "--repeat").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? 5
    RowUnitBenchmark(rows: arguments.count >= 3 ? Int(arguments[2]) ?? 100_000 : 100_000, repetitions: repetitions).run()
    exit(0)
}
if arguments.count >= 2, arguments[1] == "--model" {
    ModelBenchmark.run(repetitions: arguments.count >= 3 ? Int(arguments[2]) ?? 20 : 20)
    exit(0)
}
if arguments.count >= 5, arguments[1] == "--launch", arguments[3] == "--" {
    ProcessRun.launch(Array(arguments[4...]), stdoutPath: arguments[2])
}
if arguments.count == 3, arguments[1] == "--foundation-unarchive" {
    FoundationPeer.unarchive(path: arguments[2])
}
if arguments.count == 5, arguments[1] == "--foundation-plist" {
    FoundationPeer.propertyList(path: arguments[2], format: arguments[3], output: arguments[4])
}

/// The flags that take a count, and the setting each sets (a value that is no number keeps it).
let countFlags: [String: WritableKeyPath<BenchmarkSettings, Int>] = [
    "--dicts": \.dictionaryCount, "--value-records": \.realWorldRecords, "--archive-records": \.archiveRecords,
    "--store-rows": \.storeRows, "--typedstream-records": \.typedStreamRecords,
]
/// The flags that take a path or URL, and the setting each sets.
let pathFlags: [String: WritableKeyPath<BenchmarkSettings, String?>] = [
    "--write-inputs": \.inputsDirectory, "--cli": \.cliPath, "--baseline-cli": \.baselineCLIPath, "--postgres": \.postgresURL,
]

var settings = BenchmarkSettings()
var i = 1
while i < arguments.count {
    if i + 1 < arguments.count, let setting = countFlags[arguments[i]] {
        settings[keyPath: setting] = Int(arguments[i + 1]) ?? settings[keyPath: setting]
        i += 2
        continue
    }
    if i + 1 < arguments.count, let setting = pathFlags[arguments[i]] {
        settings[keyPath: setting] = arguments[i + 1]
        i += 2
        continue
    }
    switch arguments[i] {
    case "--repeat" where i + 1 < arguments.count:
        settings.repetitions = max(1, Int(arguments[i + 1]) ?? 1)
        i += 1
    case "--only" where i + 1 < arguments.count:
        settings.groups = [arguments[i + 1]]
        i += 1
    case "--shapes" where i + 1 < arguments.count:
        settings.rowShapes = Set(arguments[i + 1].split(separator: ",").map(String.init))
        i += 1
    case "--markdown":
        settings.markdown = true
    case "--skip-foundation":
        settings.skipFoundation = true
    default:
        FileHandle.standardError.write(Data("usage: archivist-bench [--dicts N] [--value-records N] [--repeat N] [--markdown] [--skip-foundation] [--write-inputs DIR] [--only plist|archive|store|keypath|process|typedstream|rows|shared] [--typedstream-records N] [--cli PATH] [--baseline-cli PATH] [--postgres URL] [--shapes store,postgres] [--archive-records N] [--store-rows N]\n".utf8))
        exit(64)
    }
    i += 1
}
if settings.groups == ["process"] {
    ProcessBenchmark(settings: settings).run()
} else if settings.groups == ["shared"] {
    SharedLayoutBenchmark(settings: settings).run()
} else if settings.groups == ["rows"] {
    RowsBenchmark(settings: settings).run()
} else if settings.groups == ["typedstream"] {
    TypedStreamBenchmark(settings: settings).run()
} else {
    PropertyListBenchmark(settings: settings).run()
}
