import ArgumentParser
import PropertyList

extension Archivist {
    /// `archivist replace FILE KEYPATH --TYPE VALUE`: overwrites a value that exists.
    struct Replace: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replace",
            abstract: "Overwrite the value at a keypath, which must exist.",
            discussion: """
                The dictionary key or array element must exist (exit 1 otherwise); use set to add or \
                overwrite. plutil -replace, which also adds a missing key and inserts at an array index, \
                is archivist plutil -replace. KEYPATH is plutil's (see get); nothing on the way to it is \
                created. \
                \(ValueEditArguments.writingBack)
                """
        )

        @OptionGroup
        var edit: ValueEditArguments

        func run() throws {
            try edit.run(mode: .replace)
        }
    }
}
