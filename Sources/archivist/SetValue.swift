import ArgumentParser
import PropertyList

extension Archivist {
    /// `archivist set FILE KEYPATH --TYPE VALUE`: sets a value, adding or overwriting it.
    struct SetValue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the value at a keypath, adding or overwriting it.",
            discussion: """
                A dictionary key is set whether or not it exists; an array index overwrites that \
                element, and the array's count appends. --append adds to the end of the array at \
                KEYPATH. KEYPATH is plutil's (see get); nothing on the way to it is created. \
                The file is written back in its own format (binary stays binary, XML keeps \
                Apple's layout) through a file beside it, flushed and renamed into place with \
                its mode kept, so a failed edit leaves it as it was; -o writes elsewhere.
                """
        )

        @Argument(help: "The property list to edit, or - for standard input (written to standard output).")
        var file: String

        @Argument(help: "The keypath of the value.")
        var keyPath: String

        @OptionGroup(title: "The value")
        var value: NewValueOptions

        @Flag(help: "KEYPATH names an array: add the value at its end.")
        var append = false

        @OptionGroup(title: "Output")
        var output: EditOutputOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let new = try value.value(reading.readOptions)
                let path = PropertyListKeyPath(keyPath)
                try PropertyListEdit(file: file, output: output, reading: reading).run(adding: new) { document throws(PropertyListEditError) in
                    try document.edit(new, at: path, mode: append ? .append : .set)
                }
            }
        }
    }
}
