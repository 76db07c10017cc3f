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

var settings = BenchmarkSettings()
var i = 1
while i < arguments.count {
    switch arguments[i] {
    case "--dicts" where i + 1 < arguments.count:
        settings.dictionaryCount = Int(arguments[i + 1]) ?? settings.dictionaryCount
        i += 1
    case "--value-records" where i + 1 < arguments.count:
        settings.realWorldRecords = Int(arguments[i + 1]) ?? settings.realWorldRecords
        i += 1
    case "--repeat" where i + 1 < arguments.count:
        settings.repetitions = max(1, Int(arguments[i + 1]) ?? 1)
        i += 1
    case "--write-inputs" where i + 1 < arguments.count:
        settings.inputsDirectory = arguments[i + 1]
        i += 1
    case "--only" where i + 1 < arguments.count:
        settings.groups = [arguments[i + 1]]
        i += 1
    case "--archive-records" where i + 1 < arguments.count:
        settings.archiveRecords = Int(arguments[i + 1]) ?? settings.archiveRecords
        i += 1
    case "--store-rows" where i + 1 < arguments.count:
        settings.storeRows = Int(arguments[i + 1]) ?? settings.storeRows
        i += 1
    case "--typedstream-records" where i + 1 < arguments.count:
        settings.typedStreamRecords = Int(arguments[i + 1]) ?? settings.typedStreamRecords
        i += 1
    case "--cli" where i + 1 < arguments.count:
        settings.cliPath = arguments[i + 1]
        i += 1
    case "--baseline-cli" where i + 1 < arguments.count:
        settings.baselineCLIPath = arguments[i + 1]
        i += 1
    case "--shapes" where i + 1 < arguments.count:
        settings.rowShapes = Set(arguments[i + 1].split(separator: ",").map(String.init))
        i += 1
    case "--postgres" where i + 1 < arguments.count:
        settings.postgresURL = arguments[i + 1]
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
