import ArgumentParser
import Foundation
import PropertyList

extension Archivist {
    /// `archivist lint FILE...`: checks that each file is a valid property list.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that files are valid property lists.",
            discussion: """
                Prints "FILE: OK (format)" for each valid file and one error line on standard error \
                for each invalid one, giving the byte offset (binary) or line and column (text). \
                Exits 0 when every file is valid, 1 otherwise.
                """
        )

        @Argument(help: "The files to check; - reads standard input.")
        var files: [String]

        @Option(help: "Output format: text, or json for one record per file.")
        var format: ReportFormat = .text

        @Flag(name: .shortAndLong, help: "Print nothing for valid files.")
        var silent = false

        @OptionGroup(title: "Input format")
        var inputFormat: InputFormatOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one FILE") }
        }

        func run() throws {
            var allValid = true
            var records: [[String: Any]] = []
            for path in files {
                let input = InputFile(path: path)
                do throws(CommandFailure) {
                    let (_, detected) = try input.readPropertyList(reading, as: inputFormat.from)
                    records.append(["file": input.displayName, "valid": true, "format": detected.rawValue])
                    if format == .text && !silent {
                        print("\(input.displayName): OK (\(detected))")
                    }
                } catch {
                    allValid = false
                    records.append(["file": input.displayName, "valid": false, "error": error.message])
                    error.report()
                }
            }
            if format == .json {
                let data = try JSONSerialization.data(withJSONObject: records, options: [.prettyPrinted, .sortedKeys])
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            }
            if !allValid { throw ExitCode(1) }
        }
    }
}
