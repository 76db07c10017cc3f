import ArgumentParser
import PropertyList

extension Archivist {
    /// `archivist remove FILE KEYPATH`: takes a value out, like `plutil -remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove",
            abstract: "Remove the value at a keypath (like plutil -remove).",
            discussion: """
                A dictionary entry or an array element (the elements after it move down); exit 1 \
                when nothing is there. The file is written back in its own format, through a \
                file beside it renamed into place with its mode kept; -o writes elsewhere.
                """
        )

        @OptionGroup
        var edit: PropertyListEdit

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                try edit.run { document, path throws(PropertyListEditError) in try document.remove(at: path) }
            }
        }
    }
}
