import ArgumentParser
import Foundation
import ArchiveReports
import KeyedArchive
import PropertyList

extension Archivist {
    /// `archivist inspect FILE`: the object graph of a keyed archive, as a tree, JSON or a graph.
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
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

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json, dot, html
        }

        @Argument(help: "The keyed archive to inspect, or - for standard input.")
        var file: String

        @Option(help: "Output format: text, json, dot or html.")
        var format: Format = .text

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

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let input = InputFile(path: file)
                let bytes = try input.read(limit: reading.maximumInputSize)
                var options = reading.archiveReadOptions
                if let top { options.topKey = top }
                // JSON of a large archive is written from its object table, without decoding its
                // objects, when the table describes them all (see `KeyedArchiveObjectTable`).
                let table = format == .json ? KeyedArchiveObjectTable(data: bytes, options: options) : nil
                if let table { ProcessLifetime.keep(table, as: "table") }
                let archive = table == nil ? try input.decodeArchive(bytes, reading, topKey: top) : nil
                let topKeys = table?.top.map(\.key) ?? archive?.top.map(\.key) ?? []
                if let top, !topKeys.contains(top) {
                    throw CommandFailure(file: input.displayName, message: "$top has no entry \"\(top)\" (it has: \(topKeys.joined(separator: ", ")))")
                }
                /// The decoded archive, decoded now when only the table was read.
                func decoded() throws(CommandFailure) -> KeyedArchive {
                    if let archive { return archive }
                    return try input.decodeArchive(bytes, reading, topKey: top)
                }
                let nested = NestedPayloadOptions(expands: expandNested, readOptions: reading.archiveReadOptions)
                // Streamed: the JSON of a large archive runs to 14 times its size.
                try OutputFile(path: output).stream { (sink) throws(CommandFailure) in
                    switch format {
                    case .text:
                        KeyedArchiveTreePrinter(usesColors: output == nil && Terminal.colorsEnabled(), nested: nested).write(try decoded()) { sink.write($0) }
                    case .json:
                        // Compact for pipes and files: a large archive's JSON is then a third of
                        // the indented, fully spelled form.
                        let exporter = KeyedArchiveJSONExporter(nested: nested, prettyPrinted: pretty || ((output ?? "-") == "-" && isatty(STDOUT_FILENO) == 1),
                                                                omitsDefaultMembers: !allMembers)
                        do throws(PropertyListError) {
                            if let table, try exporter.write(table, to: { sink.write($0) }) { return }
                        } catch {
                            throw CommandFailure(file: input.displayName, message: "cannot write JSON: \(error.description)")
                        }
                        let archive = try decoded()
                        do throws(PropertyListError) {
                            try exporter.write(archive) { sink.write($0) }
                        } catch {
                            throw CommandFailure(file: input.displayName, message: "cannot write JSON: \(error.description)")
                        }
                    case .dot:
                        KeyedArchiveDotExporter(nestedReadOptions: reading.readOptions).write(try decoded()) { sink.write($0) }
                    case .html:
                        let archive = try decoded()
                        do throws(PropertyListError) {
                            try KeyedArchiveHTMLPage(nested: NestedPayloadOptions(expands: false, readOptions: reading.archiveReadOptions))
                                .write(archive, title: input.displayName) { sink.write($0) }
                        } catch {
                            throw CommandFailure(file: input.displayName, message: "cannot write the page: \(error.description)")
                        }
                    }
                }
            }
        }
    }
}
