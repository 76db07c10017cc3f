import ArchiveReports
import ArgumentParser
import Foundation
import PropertyList

extension Archivist {
    /// `archivist lint FILE...`: checks that each file is a valid property list.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "lint",
            abstract: "Check that files are valid property lists.",
            discussion: """
                Prints "FILE: OK (format)" for each valid file and one error line on standard error \
                for each invalid one, giving the byte offset (binary) or line and column (text). \
                Lint is strict: it also refuses what Core Foundation reads leniently but no writer \
                should write (dates outside years 0 to 9999, non-ASCII bytes in a binary ASCII \
                string, an unterminated comment, an unknown escape, a malformed DOCTYPE, content \
                after the root); `archivist plutil -lint` answers as Apple's plutil does. \
                A key written twice in one dictionary is a warning, with the line and column of \
                both: Apple's readers keep the later value, other tools the first. Exits 0 when \
                every file is valid, 1 otherwise; with --strict, a warning also makes it 1.
                """
        )

        @Argument(help: "The files to check; - reads standard input.")
        var files: [String]

        @Option(help: "Output format: text, or json for one record per file.")
        var format: OutputFormatArgument<ReportFormats> = .init(.text)

        @Flag(name: .shortAndLong, help: "Print nothing for valid files.")
        var silent = false

        @OptionGroup(title: "Input format")
        var inputFormat: InputFormatOptions

        @Flag(help: "Count warnings (a key repeated in a dictionary) as failures: exit 1.")
        var strict = false

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one FILE") }
        }

        func run() throws {
            var allValid = true
            try reportingFailures { () throws(CommandFailure) in
                try OutputFile(path: nil).stream { (sink) throws(CommandFailure) in
                    var records: [PropertyListValue] = []
                    for path in files {
                        let input = InputFile(path: path)
                        var warnings: [PropertyListWarning] = []
                        do throws(CommandFailure) {
                            let detected = try input.validatePropertyList(reading, as: inputFormat.from, warnings: &warnings)
                            input.report(warnings)
                            if strict, !warnings.isEmpty { allValid = false }
                            var record: [(PropertyListValue, PropertyListValue)] = [
                                ("file", .string(input.displayName)), ("valid", .bool(true)), ("format", .string(detected.rawValue)),
                            ]
                            if !warnings.isEmpty { record.append(("warnings", .array(warnings.map(\.jsonValue)))) }
                            records.append(.dictionary(PropertyListDictionary(record)))
                            if format == .text && !silent {
                                sink.write("\(input.displayName): OK (\(detected))\(warnings.isEmpty ? "" : ", \(warnings.count) \(warnings.count == 1 ? "warning" : "warnings")")\n")
                                sink.flush()
                            }
                        } catch {
                            allValid = false
                            records.append(.dictionary(PropertyListDictionary([
                                ("file", .string(input.displayName)), ("valid", .bool(false)), ("error", .string(error.message)),
                            ])))
                            error.report()
                        }
                    }
                    if format == .json { sink.write(try ReportJSON.data(.array(records), file: nil, sortsKeys: true)) }
                }
            }
            if !allValid { throw ExitCode(1) }
        }
    }
}
