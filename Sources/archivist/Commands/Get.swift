import ArchiveReports
import ArgumentParser
import Foundation
import PropertyList

extension Archivist {
    /// `archivist get FILE KEYPATH`: one value out of a property list, like `plutil -extract`.
    struct Get: FileCommand {
        static let configuration = CommandConfiguration(commandName: "get",
            abstract: "Print the value at a keypath (like plutil -extract).",
            discussion: """
                KEYPATH is plutil's: keys separated by dots, a number indexes an array, \\. is a \
                dot inside a key (com\\.apple\\.foo.enabled). raw prints a string as it is, a \
                bool as true or false, an integer in decimal, a float as %f, a date in ISO 8601, \
                data in base64, an array's count and a dictionary's keys one per line, as plutil \
                does; xml, binary and json write the value as a document of its own. A binary \
                file is not read whole: only the objects on the path and in the value are. \
                With --archive, KEYPATH is an unarchive --select path (.items[3].tintColor) into \
                the archive's payload. Exit 1 when nothing is at KEYPATH or --expect does not match.
                """
        )

        @Argument(help: "The property list, or - for standard input.")
        var file: String

        @Argument(help: "The keypath of the value.")
        var keyPath: String

        @Option(help: "How to write the value: raw (the default), xml, binary or json.")
        var to: OutputFormatArgument<ValueFormats> = .init(.raw)

        @Option(help: ArgumentHelp("Fail unless the value is of this type.", valueName: "TYPE"))
        var expect: ValueTypeName?

        @Flag(name: .customShort("n"), help: "No line break after raw output.")
        var noNewline = false

        @Option(name: .shortAndLong, help: "Write here instead of standard output.")
        var output: String?

        @Flag(help: "Read FILE as a keyed archive and KEYPATH as a path into its payload, as unarchive --select takes it.")
        var archive = false

        @OptionGroup(title: "JSON output")
        var json: JSONOutputOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        var binaryOutput: String? { to.format.binaryOutput() }

        /// Mapped: a binary file's lookup touches only the pages of the objects it reads.
        var readsMapped: Bool { !archive }

        func write(_ bytes: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            let lookup = KeyPathLookup(keyPath: keyPath, archive: archive, expected: expect, reading: reading)
            let value = try lookup.value(in: bytes, from: input, target: to == .json ? .json : .propertyList)
            let data: Data
            do throws(PropertyListError) {
                switch to.format {
                case .raw:
                    guard let text = value.rawText else {
                        throw PropertyListError(.unrepresentable, "raw output cannot show \(ValueTypeName(of: value).withArticle); use --to xml, binary or json")
                    }
                    data = Data((noNewline ? text : text + "\n").utf8)
                default:
                    // xml, binary or json: a document of its own, as convert writes it.
                    data = try to.format.write(value, json: json)
                }
            } catch {
                throw CommandFailure(file: input.displayName, message: "cannot write the value at \(keyPath): \(error.description)")
            }
            try destination.write(data, endsLineOnTerminal: to == .json)
        }
    }
}
