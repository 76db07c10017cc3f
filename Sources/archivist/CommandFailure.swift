import ArgumentParser
import Foundation

/// A failure on one input, reported as one line: `archivist: <file>: <what> at <where>`.
struct CommandFailure: Error {
    var file: String
    var message: String

    var line: String { "archivist: \(file): \(message)" }

    /// Prints the line to standard error.
    func report() {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension ParsableCommand {
    /// Runs `body`, turning a `CommandFailure` into its line on stderr and exit status 1.
    func reportingFailures(_ body: () throws(CommandFailure) -> Void) throws {
        do {
            try body()
        } catch {
            error.report()
            throw ExitCode(1)
        }
    }
}
