import ArgumentParser
import PropertyList

extension Archivist {
    /// What `set`, `insert` and `replace` share: the new value, and the edit (`PropertyListEdit`:
    /// the file, the keypath, where the result goes and the reading limits). The verbs differ
    /// only in the edit mode they pass.
    struct ValueEditArguments: ParsableArguments {
        @OptionGroup(title: "The value")
        var value: NewValueOptions

        @OptionGroup
        var edit: PropertyListEdit

        /// How the edited file is written, the last sentence of the help of the verbs that take these arguments.
        static let writingBack = """
            The file is written back in its own format (binary stays binary, XML keeps \
            Apple's layout) through a file beside it, flushed and renamed into place with \
            its mode kept, so a failed edit leaves it as it was; -o writes elsewhere.
            """

        /// Reads the new value, then edits the file with it in `mode`, written back as the verbs'
        /// help says; a failure is reported as every verb reports one.
        func run(mode: PropertyListEditMode) throws {
            try reportingFailures { () throws(CommandFailure) in
                let new = try value.value(edit.reading.readOptions)
                try edit.run(adding: new) { document, path throws(PropertyListEditError) in
                    try document.edit(new, at: path, mode: mode)
                }
            }
        }
    }
}
