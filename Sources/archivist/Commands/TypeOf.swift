import ArgumentParser
import Foundation
import PropertyList

extension Archivist {
    /// `archivist type FILE KEYPATH`: the type of one value, like `plutil -type`.
    struct TypeOf: FileCommand {
        static let configuration = CommandConfiguration(
            commandName: "type",
            abstract: "Print the type of the value at a keypath (like plutil -type).",
            discussion: """
                Prints bool, integer, float, string, date, data, array or dictionary, as plutil \
                does, or set, uid or null for the values plutil has no name for. KEYPATH is as \
                for get; with --archive it is a path into the archive's payload. Exit 1 when \
                nothing is at KEYPATH or --expect does not match.
                """
        )

        @Argument(help: "The property list, or - for standard input.")
        var file: String

        @Argument(help: "The keypath of the value.")
        var keyPath: String

        @Option(help: ArgumentHelp("Fail unless the value is of this type.", valueName: "TYPE"))
        var expect: ValueTypeName?

        @Flag(help: "Read FILE as a keyed archive and KEYPATH as a path into its payload, as unarchive --select takes it.")
        var archive = false

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        /// The type goes to standard output.
        var output: String? { nil }

        /// Mapped: a binary file's lookup touches only the pages of the objects it reads.
        var readsMapped: Bool { !archive }

        func write(_ bytes: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            let value = try KeyPathLookup(keyPath: keyPath, archive: archive, expected: expect, reading: reading).value(in: bytes, from: input)
            try destination.write(ValueTypeName(of: value).rawValue + "\n")
        }
    }
}
