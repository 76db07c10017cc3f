import ArgumentParser
import PropertyList

extension Archivist {
    /// `archivist remove FILE KEYPATH`: takes a value out, like `plutil -remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the value at a keypath (like plutil -remove).",
            discussion: """
                A dictionary entry or an array element (the elements after it move down); exit 1 \
                when nothing is there. The file is written back in its own format, through a \
                file beside it renamed into place with its mode kept; -o writes elsewhere.
                """
        )

        @Argument(help: "The property list to edit, or - for standard input (written to standard output).")
        var file: String

        @Argument(help: "The keypath of the value.")
        var keyPath: String

        @OptionGroup(title: "Output")
        var output: EditOutputOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let path = PropertyListKeyPath(keyPath)
                try PropertyListEdit(file: file, output: output, reading: reading).run { document throws(PropertyListEditError) in
                    try document.remove(at: path)
                }
            }
        }
    }
}
