import ArgumentParser
import Foundation
import PropertyList

extension Archivist {
    /// `archivist type FILE KEYPATH`: the type of one value, like `plutil -type`.
    struct TypeOf: ParsableCommand {
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

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let value = try KeyPathLookup(file: file, keyPath: keyPath, archive: archive, reading: reading).value()
                let type = ValueTypeName(of: value)
                if let expect, type != expect {
                    throw CommandFailure.unexpectedType(type, expected: expect, at: keyPath, file: InputFile(path: file).displayName)
                }
                try OutputFile(path: nil).write(Data((type.rawValue + "\n").utf8))
            }
        }
    }
}
