import ArgumentParser
import Bookmark
import Foundation
import ArchiveReports
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist inspect FILE`: the object graph of a keyed archive, as a tree, JSON or a graph.
    struct Inspect: FileCommand {
        static let configuration = CommandConfiguration(commandName: "inspect",
            abstract: "Show the objects of an NSKeyedArchiver archive.",
            discussion: """
                text (the default) prints an indented tree from the root: each object as #UID and \
                its class, shared objects as → #UID, cycles as ↺ #UID, data labelled with what it \
                holds (plist, archive, JSON, PNG…), then the classes and their counts. Colors are \
                used only when standard output is a terminal and NO_COLOR is unset. json gives \
                the typed tree losslessly (its schema is in the README), compact and without \
                members at their default value unless --pretty (or a terminal) and --all-members; \
                dot gives a Graphviz graph; html gives one self-contained page with the object \
                graph as a collapsible tree (shared objects link to their first appearance, cycles \
                are marked, colors shown as swatches, images inline). Exits 1 when FILE is not a \
                readable keyed archive.
                """
        )

        @Argument(help: "The keyed archive to inspect, or - for standard input.")
        var file: String

        @Option(help: "Output format: text, json, dot or html.")
        var format: OutputFormatArgument<InspectFormats> = .init(.text)

        @Option(name: .shortAndLong, help: ArgumentHelp("Write to OUT instead of standard output.", valueName: "OUT"))
        var output: String?

        @Flag(help: "Decode plists, keyed archives and JSON held in data, and show them in place.")
        var expandNested = false

        @Option(help: ArgumentHelp("The $top key of the root object (default: root).", valueName: "KEY"))
        var top: String?

        @Flag(help: "Indent the JSON (the default on a terminal; compact otherwise).")
        var pretty = false

        @Flag(help: "Write every member of the JSON schema, default values and summaries included.")
        var allMembers = false

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func write(_ bytes: Data, from input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            if ContentKind.sniff(bytes) == .bookmark {
                return try inspectBookmark(bytes, input: input, to: destination)
            }
            var options = reading.archiveReadOptions
            if let top { options.topKey = top }
            guard var inspection = KeyedArchiveInspection(format: format.format, readOptions: options) else { return }
            inspection.expandsNested = expandNested
            inspection.usesColors = output == nil && Terminal.colorsEnabled()
            // Compact for pipes and files: a large archive's JSON is then a third of the
            // indented, fully spelled form.
            inspection.prettyPrinted = pretty || destination.isTerminal
            inspection.omitsDefaultMembers = !allMembers
            inspection.title = input.displayName
            var read: KeyedArchiveInspection.Read
            do throws(KeyedArchiveError) {
                read = try inspection.read(bytes)
            } catch {
                throw input.archiveFailure(error, data: bytes, reading)
            }
            defer { ProcessLifetime.keep(read) }
            if let top, !read.topKeys.contains(top) {
                throw CommandFailure(file: input.displayName, message: "$top has no entry \"\(top)\" (it has: \(read.topKeys.joined(separator: ", ")))")
            }
            // Streamed: the JSON of a large archive runs to 14 times its size.
            try destination.stream { (sink) throws(CommandFailure) in
                do throws(KeyedArchiveInspection.Failure) {
                    try inspection.write(&read) { sink.write($0) }
                } catch {
                    switch error {
                    case .decoding(let error): throw input.archiveFailure(error, data: bytes, reading)
                    case .writing(let error):
                        throw CommandFailure(file: input.displayName, message: "cannot write \(format == .html ? "the page" : "JSON"): \(error.description)")
                    }
                }
            }
        }

        /// Bookmark data on its own (a `.bookmark` file): its fields as a tree (text) or JSON
        /// (ISO 8601 dates, base64 data); dot and html are for object graphs.
        func inspectBookmark(_ bytes: Data, input: InputFile, to destination: OutputFile) throws(CommandFailure) {
            let bookmark: Bookmark
            do {
                bookmark = try Bookmark(data: bytes, options: reading.archiveReadOptions.bookmark)
            } catch {
                throw CommandFailure(file: input.displayName, message: "bookmark data that does not read: \(error.description)")
            }
            let value = BookmarkPropertyList.value(of: bookmark)
            switch format.format {
            case .json:
                let layout: JSONWriteOptions.OutputFormatting = pretty || destination.isTerminal ? [.prettyPrinted] : []
                let data: Data
                do throws(PropertyListError) {
                    data = try JSONPropertyListWriter(options: JSONWriteOptions(dateEncodingStrategy: .iso8601, outputFormatting: layout)).write(value)
                } catch {
                    throw CommandFailure(file: input.displayName, message: "cannot write JSON: \(error.description)")
                }
                try destination.write(data, endsLineOnTerminal: true)
            case .dot, .html:
                throw CommandFailure(file: input.displayName, message: "bookmark data has no object graph: use --format text or json")
            default:
                try destination.stream { sink in
                    PropertyListPrettyPrinter(usesColors: output == nil && Terminal.colorsEnabled()).write(value) { sink.write($0) }
                }
            }
        }
    }
}
