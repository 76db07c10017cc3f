import ArgumentParser
import PropertyList

extension Archivist {
    /// `archivist set FILE KEYPATH --TYPE VALUE`: sets a value, adding or overwriting it.
    enum SetValue: AppendingEditVerb {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the value at a keypath, adding or overwriting it.",
            discussion: """
                A dictionary key is set whether or not it exists; an array index overwrites that \
                element, and the array's count appends. --append adds to the end of the array at \
                KEYPATH. KEYPATH is plutil's (see get); nothing on the way to it is created. \
                \(ValueEditArguments.writingBack)
                """
        )

        static let mode = PropertyListEditMode.set
    }
}
