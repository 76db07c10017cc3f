import ArgumentParser

/// Where and how `set`, `insert`, `replace` and `remove` write the edited document.
struct EditOutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Write the edited document here instead of back to FILE (- is standard output).")
    var output: String?

    @Option(help: "Write in this format instead of the file's own (needed for OpenStep input, which is read only).")
    var to: OutputFormatArgument<EditFormats>?
}
