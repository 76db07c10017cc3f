import Foundation
import PropertyList
import SystemInterface

/// A FILE argument: a path, or - for standard input.
struct InputFile {
    let path: String

    var displayName: String { path == "-" ? "<stdin>" : path }

    /// The file's extension, which tells JSON from OpenStep text; nil for standard input.
    var fileExtension: String? { path == "-" ? nil : URL(fileURLWithPath: path).pathExtension }

    /// Reads the whole input, refusing anything over `limit` before reading past it
    /// (`FileInput`: regular files mapped, and with `mapped` only the pages a reader touches
    /// read in). Errors are the system's reasons in our words, never Foundation's.
    func read(limit: Int, mapped: Bool = false) throws(CommandFailure) -> Data {
        if path == "-" { return try Self.readStream(STDIN_FILENO, limit: limit, name: displayName) }
        do {
            return try FileInput.read(path: path, limit: limit, populate: !mapped)
        } catch {
            throw Self.failure(error, limit: limit, name: path)
        }
    }

    /// Reads `fd` to its end, stopping as soon as more than `limit` bytes have come.
    static func readStream(_ fd: Int32, limit: Int, name: String) throws(CommandFailure) -> Data {
        do {
            return try FileInput.readStream(fd, limit: limit)
        } catch {
            throw failure(error, limit: limit, name: name)
        }
    }

    /// A read of `name` that failed, in our words.
    static func failure(_ error: FileInput.Failure, limit: Int, name: String) -> CommandFailure {
        let message = switch error {
        case .noSuchFile: "no such file"
        case .isFolder: "is a folder"
        case .tooLarge(let size): "file is \(size) bytes, over the limit of \(limit) (see --max-input-size)"
        case .overLimit: "input is over the limit of \(limit) bytes (see --max-input-size)"
        case .system(let error): "cannot read: \(SystemError.reason(error.code))"
        }
        return CommandFailure(file: name, message: message)
    }

    /// Checks the input as `readPropertyList` reads it (same warnings and limits), strictly:
    /// what Core Foundation reads leniently but no writer should write is refused
    /// (`PropertyListReadOptions.requiresWellFormedInput`). `lint`'s work; the value is not kept.
    func validatePropertyList(_ options: ReadingOptions, as format: PropertyListFormat? = nil,
                              warnings: inout [PropertyListWarning]) throws(CommandFailure) -> PropertyListFormat {
        let data = try read(limit: options.maximumInputSize)
        var readOptions = options.readOptions
        readOptions.requiresWellFormedInput = true
        let reader = PropertyListReader(options: readOptions)
        do {
            // Binary is checked without a tree; the other formats are read whole, and their
            // tree kept to the end of the process like any other input.
            guard (format ?? PropertyListFormat.detect(data)) == .binary else {
                let read = if let format { (value: try reader.read(data, as: format, warnings: &warnings), format: format) }
                    else { try reader.read(data, fileExtension: fileExtension, warnings: &warnings) }
                ProcessLifetime.keep(read.value)
                return read.format
            }
            if let format {
                try reader.validate(data, as: format, warnings: &warnings)
                return format
            }
            return try reader.validate(data, fileExtension: fileExtension, warnings: &warnings)
        } catch {
            throw CommandFailure(file: displayName, message: Diagnosis.propertyListFailure(error, data: data))
        }
    }

    /// Parses `data`, read from this input, as a property list of any format: `format` when
    /// given, else the one its content and its file's extension say
    /// (`PropertyListReader.read(_:fileExtension:)`).
    ///
    /// Warnings (a key repeated in a dictionary) go to standard error once the file is read; the
    /// value is what Apple's readers make of the file.
    ///
    /// - Parameter preferringJSON: JSON first when the text may be JSON (`archive`'s payloads).
    func readPropertyList(_ data: Data, _ options: ReadingOptions, as format: PropertyListFormat? = nil,
                          preferringJSON: Bool = false) throws(CommandFailure) -> (value: PropertyListValue, format: PropertyListFormat) {
        var warnings: [PropertyListWarning] = []
        do {
            let reader = PropertyListReader(options: options.readOptions)
            let read = if let format { (value: try reader.read(data, as: format, warnings: &warnings), format: format) }
                else { try reader.read(data, fileExtension: fileExtension, preferringJSON: preferringJSON, warnings: &warnings) }
            ProcessLifetime.keep(read.value)
            report(warnings)
            return read
        } catch {
            throw CommandFailure(file: displayName, message: Diagnosis.propertyListFailure(error, data: data))
        }
    }

    /// Says each warning about this input (a key repeated in a dictionary) on standard error.
    func report(_ warnings: [PropertyListWarning]) {
        for warning in warnings { StandardError.write("archivist: \(displayName): warning: \(warning.description)\n") }
    }
}
