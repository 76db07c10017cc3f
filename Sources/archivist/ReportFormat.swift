import ArgumentParser
import Foundation
import PropertyList

/// How a verb reports: for people, or for machines.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json

    /// A report for machines as `check`, `scan` and `migrate` write it: indented JSON, slashes
    /// unescaped, ending with a line break.
    static func jsonReport(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        var options = JSONWriteOptions()
        options.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return try JSONPropertyListWriter(options: options).write(value) + Data("\n".utf8)
    }

    /// `jsonReport`, with a failure worded for `file`'s report.
    static func jsonReport(_ value: PropertyListValue, file: String) throws(CommandFailure) -> Data {
        do {
            return try jsonReport(value)
        } catch {
            throw CommandFailure(file: file, message: "cannot write the report as JSON: \(error.description)")
        }
    }
}
