import Foundation

// archivist-parity: gives the same bytes to Core Foundation's property-list reader (the one
// PropertyListSerialization calls) and to Archivist's PropertyListReader, and compares what each
// made of them: accepted or refused, the format, and the value. Inputs: every file of the shared
// corpus and structured mutations of each. Any difference not explained by a row of
// Tests/Parity/known-differences.tsv fails the run (exit 1). See docs/parity.md.
//
//   archivist-parity [--corpus DIR] [--known FILE] [--only TEXT] [--limit N] [--show N]
//                    [--originals-only] [--save-differences DIR] [--timeout SECONDS]
//   archivist-parity --oracle-worker      (internal: CF's side, one input at a time on stdin)
//   archivist-parity --cf FILE...          CF's answer for each file, as the harness sees it
//   archivist-parity [--show 0] --round-trip [FILE...]
//                                          Apple-written binary files of the corpus (and FILEs)
//                                          read and written back: how many come back identical

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--oracle-worker" {
    OracleWorker.run()
}

do {
    let settings = try ParitySettings(arguments)
    exit(try ParityRun(settings: settings).run())
} catch {
    FileHandle.standardError.write(Data("archivist-parity: \(error)\n".utf8))
    exit(64)
}
