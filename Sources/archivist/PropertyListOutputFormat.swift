import ArgumentParser
import Foundation
import PropertyList

/// The formats `convert` and `unarchive` write a value in.
enum PropertyListOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case xml, binary, json, swift, objc

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
                                          importedHeader: outputPath.flatMap { $0 == "-" ? nil : Self.headerName(for: $0) }).write(value)
        }
    }

    /// `Info.m` → `Info.h`: the header an Objective-C literal file imports.
    static func headerName(for output: String) -> String {
        let name = URL(fileURLWithPath: output).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + ".h" }
        return name[..<dot] + ".h"
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

    /// Refuses a binary property list on a terminal unless -o - asked for it.
    func checkDestination(_ output: OutputFile) throws(CommandFailure) {
        if self == .binary { try output.refuseBinaryOnTerminal("a binary property list") }
    }
}
