import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist print FILE`: a human-readable tree, like `plutil -p`.
    struct Print: FileCommand {
        static let configuration = CommandConfiguration(commandName: "print",
            abstract: "Print a property list as a readable tree (like plutil -p).",
            discussion: """
                An NSArchiver typedstream is printed as the keyed archive of its objects (what \
                rewrite --to keyed writes). Colors are used only when standard output is a terminal \
                and NO_COLOR is unset.
                """
        )

        @Argument(help: "The property list to print, or - for standard input.")
        var file: String

        @OptionGroup(title: "Input format")
        var inputFormat: InputFormatOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        /// The tree goes to standard output.
        var output: String? { nil }

        func write(_ data: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            let kind = inputFormat.from == nil ? ContentKind.sniff(data) : nil
            let value = if kind == .typedStream || kind == .nibArchive {
                KeyedArchiveWriter().plist(for: try input.decodeArchive(data, reading, topKey: nil))
            } else {
                try input.readPropertyList(data, reading, as: inputFormat.from).value
            }
            // Streamed: the text of a large document is never held whole.
            try destination.stream { sink in
                PropertyListPrettyPrinter(usesColors: Terminal.colorsEnabled()).write(value) { sink.write($0) }
            }
        }
    }
}
