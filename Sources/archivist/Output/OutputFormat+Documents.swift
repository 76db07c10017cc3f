import ArchiveReports
import Foundation
import PropertyList

/// The documents `convert` and `unarchive` write a value as (`DocumentFormats`).
extension OutputFormat {
    /// `value` in this format; JSON with `json`'s choices. Swift and Objective-C literals name
    /// their constant after `sourceName` (the input file), and an Objective-C file written to
    /// `outputPath` imports the header beside it, as plutil's do.
    func write(_ value: PropertyListValue, json: JSONOutputOptions, sourceName: String = "-", outputPath: String? = nil) throws(PropertyListError) -> Data {
        switch self {
        case .binary: BinaryPropertyListWriter().write(value)
        case .xml: try XMLPropertyListWriter().write(value)
        case .json: try json.writer.write(value)
        case .swift: try PropertyListLiteralWriter(language: .swift, sourceName: sourceName).write(value)
        case .objc:
            try PropertyListLiteralWriter(language: .objc, sourceName: sourceName,
                                          importedHeader: outputPath.flatMap { $0 == "-" ? nil : PropertyListLiteralWriter.headerName(for: $0) }).write(value)
        case .text, .jsonl, .dot, .html, .raw, .keyed:
            throw PropertyListError(.unrepresentable, "\(rawValue) is a report's format, not a property list's")
        }
    }

    /// Writes a binary property list in this format straight from its objects
    /// (`BinaryPropertyListConverter.write(_:as:into:)`). False, with nothing written, when the
    /// input is not binary, this format is not XML or binary, or the converter does not take
    /// the file: the caller then reads the value and writes it, which reports any error.
    func transcode(_ data: Data, from format: PropertyListFormat?, options: PropertyListReadOptions, workerStackSize: Int?,
                   to destination: OutputFile) throws(CommandFailure) -> Bool {
        guard (format ?? PropertyListFormat.detect(data)) == .binary, self == .xml || self == .binary else { return false }
        let converter = BinaryPropertyListConverter(options: options, workerStackSize: workerStackSize)
        let sink = try destination.open()
        guard converter.write(data, as: self == .xml ? .xml : .binary, into: sink) else {
            sink.abandon()
            return false
        }
        try destination.commit(sink)
        return true
    }

    /// `value` in this format, a failure worded for `file` with the flag that would help.
    func write(_ value: PropertyListValue, json: JSONOutputOptions, sourceName: String = "-", outputPath: String? = nil,
               file: String) throws(CommandFailure) -> Data {
        do {
            return try write(value, json: json, sourceName: sourceName, outputPath: outputPath)
        } catch {
            throw failure(error, file: file)
        }
    }

    /// A writer's error worded for `file`, with the flag that would help.
    func failure(_ error: PropertyListError, file: String) -> CommandFailure {
        var message = "cannot write \(rawValue): \(error.description)"
        if error.code == .unrepresentable, error.message.hasPrefix(PropertyListError.nonConformingFloatMessagePrefix) {
            message += "; --non-conforming-floats INF,-INF,NAN writes such numbers as those strings"
        }
        return CommandFailure(file: file, message: message)
    }

    /// `what` when this format is binary, which a terminal is refused unless -o - asks for it
    /// (`FileCommand.binaryOutput`); nil for text.
    func binaryOutput(_ what: String = "a binary property list") -> String? {
        self == .binary ? what : nil
    }
}
