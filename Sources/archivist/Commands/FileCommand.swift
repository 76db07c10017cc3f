import ArgumentParser
import Foundation

/// A verb that reads one FILE (or standard input) and writes what it makes of it to `-o` or
/// standard output. The flow they share is here once: a binary output refused on a terminal
/// before any work, the input read within `--max-input-size`, failures reported as one line
/// with exit status 1. Each verb says only what it makes of the bytes.
protocol FileCommand: ParsableCommand {
    /// FILE: a path, or - for standard input.
    var file: String { get }
    /// `-o`: nil or - is standard output.
    var output: String? { get }
    var reading: ReadingOptions { get }
    /// The output when it is known to be binary before anything is read ("a binary property
    /// list"), which a terminal does not take; nil for text.
    var binaryOutput: String? { get }
    /// Whether FILE is mapped, so that only the pages a reader touches are read in.
    var readsMapped: Bool { get }
    /// Writes to `destination` what the verb makes of `bytes`, read from `input`.
    func write(_ bytes: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure)
}

extension FileCommand {
    var binaryOutput: String? { nil }
    var readsMapped: Bool { false }

    func run() throws {
        try reportingFailures { () throws(CommandFailure) in
            let input = InputFile(path: file), destination = OutputFile(path: output)
            if let binaryOutput { try destination.refuseBinaryOnTerminal(binaryOutput) }
            try write(input.read(limit: reading.maximumInputSize, mapped: readsMapped), from: input, to: destination)
        }
    }
}
