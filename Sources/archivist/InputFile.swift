import Foundation
import PropertyList

/// A FILE argument: a path, or - for standard input.
struct InputFile {
    let path: String

    var displayName: String { path == "-" ? "<stdin>" : path }

    /// The file's extension, which tells JSON from OpenStep text; nil for standard input.
    var fileExtension: String? { path == "-" ? nil : URL(fileURLWithPath: path).pathExtension }

    /// Reads the whole input, refusing anything over `limit` before reading it.
    ///
    /// With `mapped`, a file is mapped into memory rather than read, so that a reader that
    /// looks at a few objects (`get`) touches only their pages.
    func read(limit: Int, mapped: Bool = false) throws(CommandFailure) -> Data {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard data.count <= limit else {
                throw CommandFailure(file: displayName, message: "input is \(data.count) bytes, over the limit of \(limit)")
            }
            return data
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(file: path, message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw CommandFailure(file: path, message: "is a directory")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limit {
            throw CommandFailure(file: path, message: "file is \(size) bytes, over the limit of \(limit) (see --max-input-size)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: mapped ? .alwaysMapped : .mappedIfSafe)
        } catch {
            throw CommandFailure(file: path, message: "cannot read: \(error.localizedDescription)")
        }
    }

    /// Reads and parses the input as a property list of any format: `format` when given, else
    /// the one its content and its file's extension say (`PropertyListReader.read(_:fileExtension:)`).
    func readPropertyList(_ options: ReadingOptions, as format: PropertyListFormat? = nil) throws(CommandFailure) -> (value: PropertyListValue, format: PropertyListFormat) {
        let data = try read(limit: options.maximumInputSize)
        do {
            let reader = PropertyListReader(options: options.readOptions)
            if let format { return (try reader.read(data, as: format), format) }
            return try reader.read(data, fileExtension: fileExtension)
        } catch {
            throw CommandFailure(file: displayName, message: error.description)
        }
    }
}
