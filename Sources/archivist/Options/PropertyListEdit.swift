import ArchiveReports
import ArgumentParser
import Foundation
import PropertyList

/// One edit of a property-list file, and the arguments every edit takes, shared by `set`,
/// `insert`, `replace` and `remove`: read the document, change it in memory, write it whole in
/// its own format, replacing the file only once the new bytes are on disk.
struct PropertyListEdit: ParsableArguments {
    @Argument(help: "The property list to edit, or - for standard input (written to standard output).")
    var file: String

    @Argument(help: "The keypath of the value.")
    var keyPath: String

    @OptionGroup(title: "Output")
    var output: EditOutputOptions

    @OptionGroup(title: "Reading limits")
    var reading: ReadingOptions

    /// Reads FILE, applies `change` at KEYPATH, and writes the result. `added` is the value put
    /// into the document, checked against what the output format can hold.
    ///
    /// Nothing is written unless every step succeeds, so a failed edit leaves the file as it was.
    func run(adding added: PropertyListValue? = nil,
             _ change: (inout PropertyListValue, PropertyListKeyPath) throws(PropertyListEditError) -> Void) throws(CommandFailure) {
        let input = InputFile(path: file)
        // A binary file's bytes are kept to lay the edited file out as the original
        // (`PropertyListDocument`); the other formats' are let go once read.
        var document = try read(input)
        do {
            try change(&document.value, PropertyListKeyPath(keyPath))
        } catch {
            throw CommandFailure(file: input.displayName, message: error.message)
        }
        let bytes = try encode(document, added: added, displayName: input.displayName)
        // Standard input is written back to standard output; only `-o -` puts binary on a terminal.
        let destination = OutputFile(path: output.output ?? (file == "-" ? nil : file))
        if bytes.starts(with: Array("bplist".utf8)) { try destination.refuseBinaryOnTerminal("a binary property list") }
        try destination.write(bytes)
    }

    /// The document, in its format and, for JSON, its look.
    func read(_ input: InputFile) throws(CommandFailure) -> PropertyListDocument {
        let data = try input.read(limit: reading.maximumInputSize)
        do {
            // A key repeated in a dictionary is said, as every reading verb says it: the edited
            // document keeps only the value Apple's readers see.
            var warnings: [PropertyListWarning] = []
            let document = try PropertyListDocument(data: data, fileExtension: input.fileExtension, options: reading.readOptions, warnings: &warnings)
            input.report(warnings)
            return document
        } catch {
            throw CommandFailure(file: input.displayName, message: Diagnosis.propertyListFailure(error, data: data))
        }
    }

    /// The edited document in the output format: the file's own unless `--to` says otherwise.
    func encode(_ document: PropertyListDocument, added: PropertyListValue?, displayName: String) throws(CommandFailure) -> Data {
        let format: PropertyListFormat
        switch (output.to?.format, document.format) {
        case (.binary?, _): format = .binary
        case (.xml?, _): format = .xml
        case (_?, _): format = .json
        case (nil, .openStep):
            throw CommandFailure(file: displayName, message: "OpenStep property lists are read only; give --to xml, binary or json to write the edited document")
        case (nil, let own): format = own
        }
        do throws(PropertyListError) {
            // JSON has no dates or data: a file that stays JSON refuses them rather than turn
            // them into numbers and strings (plutil refuses them too).
            if format == .json, output.to == nil, let added, let kind = added.firstNonJSONKind {
                throw PropertyListError(.unrepresentable, "a JSON document cannot hold \(kind); write another format with --to")
            }
            return try document.data(as: format)
        } catch {
            throw CommandFailure(file: displayName, message: "cannot write the edited document: \(error.description)")
        }
    }
}
