import Foundation
import PropertyList

/// One edit of a property-list file, shared by `set`, `insert`, `replace` and `remove`: read the
/// document, change it in memory, write it whole in its own format, replacing the file only
/// once the new bytes are on disk.
struct PropertyListEdit {
    var file: String
    var output: EditOutputOptions
    var reading: ReadingOptions

    /// Reads FILE, applies `change`, and writes the result. `added` is the value put into the
    /// document, checked against what the output format can hold.
    ///
    /// Nothing is written unless every step succeeds, so a failed edit leaves the file as it was.
    func run(adding added: PropertyListValue? = nil, _ change: (inout PropertyListValue) throws(PropertyListEditError) -> Void) throws(CommandFailure) {
        let input = InputFile(path: file)
        // A binary file's bytes are kept to lay the edited file out as the original (see
        // `encode`); the other formats' are let go once read.
        var (value, format, style, original) = try read(input)
        do {
            try change(&value)
        } catch {
            throw CommandFailure(file: input.displayName, message: error.message)
        }
        let bytes = try encode(value, originalFormat: format, jsonStyle: style, added: added, displayName: input.displayName, original: original)
        // Standard input is written back to standard output; only `-o -` puts binary on a terminal.
        let destination = OutputFile(path: output.output ?? (file == "-" ? nil : file))
        if bytes.starts(with: Array("bplist".utf8)) { try destination.refuseBinaryOnTerminal("a binary property list") }
        try destination.write(bytes)
    }

    /// The document, its format, how its JSON looks, and its bytes when it is binary.
    func read(_ input: InputFile) throws(CommandFailure) -> (PropertyListValue, PropertyListFormat, JSONStyleWriter, Data?) {
        let data = try input.read(limit: reading.maximumInputSize)
        do {
            // A key repeated in a dictionary is said, as every reading verb says it: the edited
            // document keeps only the value Apple's readers see.
            var warnings: [PropertyListWarning] = []
            let (value, format) = try PropertyListReader(options: reading.readOptions).read(data, fileExtension: input.fileExtension, warnings: &warnings)
            for warning in warnings { StandardError.write("archivist: \(input.displayName): warning: \(warning.description)\n") }
            return (value, format, format == .json ? Self.jsonLike(data) : JSONStyleWriter(pretty: false, endsWithLineBreak: false),
                    format == .binary ? data : nil)
        } catch {
            throw CommandFailure(file: input.displayName, message: Diagnosis.propertyListFailure(error, data: data))
        }
    }

    /// The edited document in the output format: the file's own unless `--to` says otherwise.
    /// Binary written over a binary `original` is laid out as CF writes back what it read and
    /// edited (`BinaryPropertyListLayoutWriter`): what the edit left as it was stays as it was.
    func encode(_ value: PropertyListValue, originalFormat: PropertyListFormat, jsonStyle: JSONStyleWriter, added: PropertyListValue?,
                displayName: String, original: Data? = nil) throws(CommandFailure) -> Data {
        let format: EditOutputOptions.Format
        switch (output.to, originalFormat) {
        case (let to?, _): format = to
        case (nil, .binary): format = .binary
        case (nil, .xml): format = .xml
        case (nil, .json): format = .json
        case (nil, .openStep):
            throw CommandFailure(file: displayName, message: "OpenStep property lists are read only; give --to xml, binary or json to write the edited document")
        }
        do throws(PropertyListError) {
            switch format {
            case .binary:
                if let original { return BinaryPropertyListLayoutWriter(original: original, options: reading.readOptions).write(value) }
                return BinaryPropertyListWriter().write(value)
            case .xml:
                return try XMLPropertyListWriter().write(value)
            case .json:
                // JSON has no dates or data: a file that stays JSON refuses them rather than
                // turn them into numbers and strings (plutil refuses them too).
                if output.to == nil, let added, let kind = Self.firstNonJSONValue(in: added) {
                    throw PropertyListError(.unrepresentable, "a JSON document cannot hold \(kind); write another format with --to")
                }
                return try jsonStyle.write(value)
            }
        } catch {
            throw CommandFailure(file: displayName, message: "cannot write the edited document: \(error.description)")
        }
    }

    /// A JSON writer that keeps the look of `original`: indented when it spanned several lines,
    /// compact otherwise; slashes unescaped; a final line break when it had one.
    static func jsonLike(_ original: Data) -> JSONStyleWriter {
        // A line break before the trailing white space means the document spans lines.
        var end = original.endIndex
        while end > original.startIndex, [0x0A, 0x0D, 0x20, 0x09].contains(original[end - 1]) { end -= 1 }
        let multiline = original[original.startIndex..<end].contains(0x0A)
        return JSONStyleWriter(pretty: multiline, endsWithLineBreak: original.last == 0x0A)
    }

    struct JSONStyleWriter {
        var pretty: Bool
        var endsWithLineBreak: Bool

        func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
            var options = JSONWriteOptions()
            options.outputFormatting.insert(.withoutEscapingSlashes)
            if pretty { options.outputFormatting.insert(.prettyPrinted) }
            var data = try JSONPropertyListWriter(options: options).write(value)
            if endsWithLineBreak { data.append(0x0A) }
            return data
        }
    }

    /// The first kind of value in `value` that JSON has no type for, or nil.
    static func firstNonJSONValue(in value: PropertyListValue) -> String? {
        switch value {
        case .date: return "a date"
        case .data: return "data"
        case .uid: return "a UID"
        case .set: return "a set"
        case .null: return "a null"
        case .array(let a): return a.lazy.compactMap(firstNonJSONValue).first
        case .dictionary(let d): return d.values.lazy.compactMap(firstNonJSONValue).first
        default: return nil
        }
    }
}
