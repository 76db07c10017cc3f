import Foundation
import PropertyList

/// A report for machines as `check`, `lint`, `scan` and `migrate` write it (`--format json`):
/// the report's `jsonValue` indented, slashes unescaped, keys sorted when `sortsKeys` (`lint`),
/// ending with a line break.
enum ReportJSON {
    static func data(_ value: PropertyListValue, sortsKeys: Bool = false) throws(PropertyListError) -> Data {
        var options = JSONWriteOptions()
        options.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        if sortsKeys { options.outputFormatting.insert(.sortedKeys) }
        return try JSONPropertyListWriter(options: options).write(value) + Data("\n".utf8)
    }

    /// Writes a report to standard output as `format` asks: `text()`, or `json()` (usually
    /// `data(_:)` of the report's `jsonValue`), a failure of which reads `FILE: WORDING: REASON`.
    static func write(_ format: OutputFormatArgument<ReportFormats>, file: String, wording: String = "cannot write the report",
                      text: () -> String, json: () throws(PropertyListError) -> Data) throws(CommandFailure) {
        guard format == .json else { return try OutputFile(path: nil).write(text()) }
        let data: Data
        do {
            data = try json()
        } catch {
            throw CommandFailure(file: file, message: "\(wording): \(error.description)")
        }
        try OutputFile(path: nil).write(data)
    }

    /// `data(_:sortsKeys:)`, with a failure worded for `file`'s report (or none in particular).
    static func data(_ value: PropertyListValue, file: String?, sortsKeys: Bool = false) throws(CommandFailure) -> Data {
        do {
            return try data(value, sortsKeys: sortsKeys)
        } catch {
            throw CommandFailure(file: file, message: "cannot write the report as JSON: \(error.description)")
        }
    }
}
