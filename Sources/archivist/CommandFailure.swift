import ArgumentParser
import Foundation

/// A failure, reported as one line: `archivist: <file>: <what> at <where>`, or
/// `archivist: <what>` when it is about no one input (`cannot write OUTPUT: REASON`).
struct CommandFailure: Error {
    var file: String?
    var message: String

    init(file: String? = nil, message: String) {
        self.file = file
        self.message = message
    }

    var line: String {
        let message = Self.namingFlags(message)
        return file.map { "archivist: \($0): \(message)" } ?? "archivist: \(message)"
    }

    /// A library message with the flag that lifts its limit: the library names no flag
    /// (`PropertyListReadOptions.expansionLimit` is its option), and every verb that reports
    /// through here, or writes such messages into its records (`sweep`), takes
    /// --no-expansion-limit (ReadingOptions).
    static func namingFlags(_ message: String) -> String {
        message.replacingOccurrences(of: "(the expansion limit)", with: "(the expansion limit; --no-expansion-limit lifts it)")
    }

    /// Prints the line to standard error.
    func report() {
        StandardError.write(line + "\n")
    }
}

extension ParsableArguments {
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
