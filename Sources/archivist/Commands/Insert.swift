import ArgumentParser
import PropertyList

extension Archivist {
    /// `archivist insert FILE KEYPATH --TYPE VALUE`: adds a value, like `plutil -insert`.
    enum Insert: AppendingEditVerb {
        static let configuration = CommandConfiguration(
            commandName: "insert",
            abstract: "Add a value at a keypath (like plutil -insert).",
            discussion: """
                A new dictionary key (refused when it exists), or a new array element at the index \
                given, the elements after it moving up (the array's count appends). --append adds to the \
                end of the array at KEYPATH. KEYPATH is plutil's (see get); nothing on the way to it is \
                created.
                \(ValueEditArguments.writingBack)
                """
        )

        static let mode = PropertyListEditMode.insert
    }
}
