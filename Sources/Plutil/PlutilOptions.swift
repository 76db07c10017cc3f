/// The options plutil's commands share, after the command's own arguments: files, `-o`, `-e`,
/// `-s`, `-r`, `-n` and `--`.
struct PlutilOptions {
    var paths: [String] = []
    /// `-r`: indented JSON, keys sorted.
    var readable = false
    /// `-n`: no line break after raw and type output.
    var omitsNewline = false
    /// `-o PATH`: where the result goes (`-` is standard output).
    var output: String?
    /// `-e EXT`: the extension of converted files.
    var fileExtension: String?
    /// `-s`: no "OK" lines from `-lint`.
    var silent = false

    /// - Throws: plutil's message for an option it does not know or one missing its argument,
    ///   and when no file is given.
    init(_ arguments: [String]) throws(PlutilProgram.UsageFailure) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--":
                // Everything after is a file, even when it starts with a dash.
                while let path = iterator.next() { paths.append(path) }
            case "-n": omitsNewline = true
            case "-s": silent = true
            case "-r": readable = true
            case "-o":
                guard let next = iterator.next() else { throw .init("Missing argument for -o.") }
                output = next
            case "-e":
                guard let next = iterator.next() else { throw .init("Missing argument for -e.") }
                fileExtension = next
            default:
                if argument.hasPrefix("-"), argument.count > 1 { throw .init("unrecognized option: \(argument)") }
                paths.append(argument)
            }
        }
        guard !paths.isEmpty else { throw .init("No files specified.") }
    }
}

/// The formats plutil writes, by the names its `-convert`, `-extract` and `-create` take.
enum PlutilFormat: Equatable {
    case xml1, binary1, json, swift, objc, openStep, raw, type

    /// The types `-expect` accepts.
    static let expectTypes: Set<String> = ["bool", "integer", "float", "string", "date", "data", "dictionary", "array"]

    /// The format named `argument`; nil for `NoConversion` (keep the file's own).
    init?(argument: String) throws(PlutilProgram.UsageFailure) {
        switch argument {
        case "NoConversion": return nil
        case "xml1": self = .xml1
        case "binary1": self = .binary1
        case "json": self = .json
        case "swift": self = .swift
        case "objc": self = .objc
        case "openStep": self = .openStep
        case "raw": self = .raw
        case "type": self = .type
        default: throw .init("Unknown format specifier: \(argument)")
        }
    }
}
