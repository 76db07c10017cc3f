import ArgumentParser
import PropertyList

extension Archivist {
    /// What `set`, `insert` and `replace` share: the file, the keypath, the new value, where the
    /// result goes and the reading limits. The verbs differ only in the edit mode they pass.
    struct ValueEditArguments: ParsableArguments {
        @Argument(help: "The property list to edit, or - for standard input (written to standard output).")
        var file: String

        @Argument(help: "The keypath of the value.")
        var keyPath: String

        @OptionGroup(title: "The value")
        var value: NewValueOptions

        @OptionGroup(title: "Output")
        var output: EditOutputOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        /// How the edited file is written, the last sentence of the help of the verbs that take these arguments.
        static let writingBack = """
            The file is written back in its own format (binary stays binary, XML keeps \
            Apple's layout) through a file beside it, flushed and renamed into place with \
            its mode kept, so a failed edit leaves it as it was; -o writes elsewhere.
            """

        /// Reads the new value, then edits the file with it in `mode`, written back as the verbs' help says.
        func run(mode: PropertyListEditMode) throws(CommandFailure) {
            let new = try value.value(reading.readOptions)
            let path = PropertyListKeyPath(keyPath)
            try PropertyListEdit(file: file, output: output, reading: reading).run(adding: new) { document throws(PropertyListEditError) in
                try document.edit(new, at: path, mode: mode)
            }
        }
    }
}
