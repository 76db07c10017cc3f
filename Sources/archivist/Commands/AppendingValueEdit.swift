import ArgumentParser
import PropertyList

/// What `set` and `insert` say of themselves: their name and help, and what they do with a key
/// or index that exists (`PropertyListEditMode`).
protocol AppendingEditVerb {
    static var configuration: CommandConfiguration { get }
    static var mode: PropertyListEditMode { get }
}

extension Archivist {
    /// `set` and `insert`, one command: the value goes at KEYPATH as `Verb`'s mode says, or with
    /// --append at the end of the array there. The two verbs differ only in `Verb`.
    struct AppendingValueEdit<Verb: AppendingEditVerb>: ParsableCommand {
        static var configuration: CommandConfiguration { Verb.configuration }

        @OptionGroup
        var edit: ValueEditArguments

        @Flag(help: "KEYPATH names an array: add the value at its end.")
        var append = false

        func run() throws {
            try edit.run(mode: append ? .append : Verb.mode)
        }
    }
}
