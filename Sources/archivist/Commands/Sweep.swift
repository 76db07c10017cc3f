import ArchiveReports
import ArgumentParser
import Foundation
import PropertyList
import Sweep

extension Archivist {
    /// `archivist sweep PATH…`: every property list, keyed archive and SQLite database in a
    /// device extraction, found by content.
    struct Sweep: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sweep",
            abstract: "Find every property list, keyed archive and database in folders, zips and tars.",
            discussion: """
                PATH is a folder, a zip, or a tar (plain, gzip, bzip2 or xz), as extraction tools \
                write them; containers are read in place, never unpacked (an SQLite database in a \
                container is copied to a private temporary folder while it is read, and removed; \
                one in a folder is read where it lies, changing nothing). Items are \
                found by content, not by name: binary, XML and OpenStep property lists, keyed \
                archives, SQLite databases and Core Data stores, plists and archives in database \
                cells, and documents inside other documents' data. Each is one record: its path \
                (extraction.tar!/…/Store.sqlite#ZNOTE.ZDATA[Z_PK=12]/root.attachments[0]), kind, \
                format and size; for an archive its classes and the verdict of \
                NSSecureUnarchiveFromDataTransformer's default allow-list plus --allow; for a \
                database what scan says per attribute; the error for anything damaged. A summary \
                closes the output. Formats: text (the default on a terminal), jsonl (one record a \
                line as items are found; the default otherwise), json (one document) and html \
                (one self-contained page). Reading limits apply to each item. Exit status: 0, \
                also when items are damaged; 1 when a PATH cannot be read at all.
                """
        )

        @Argument(help: "Folders, zips or tars to sweep.")
        var paths: [String]

        @Option(help: "Output format: text, jsonl, json or html (default: text on a terminal, jsonl otherwise).")
        var format: OutputFormatArgument<SweepFormats>?

        @Option(name: .shortAndLong, help: ArgumentHelp("Write the report to OUT instead of standard output.", valueName: "OUT"))
        var output: String?

        @Option(help: "Items read at once (default: the number of cores).")
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

        @Flag(name: .customLong("include-json"), help: "Report JSON files and JSON in data and cells as plists of format json.")
        var includesJSON = false

        @Option(name: .customLong("max-container-depth"), help: "How deep zips and tars may nest inside each other.")
        var maximumContainerDepth = SweepOptions().maximumContainerDepth

        @Option(name: .customLong("max-database-size"), help: "Largest SQLite database read, in bytes, with its -wal and -journal.")
        var maximumDatabaseSize = SweepOptions().maximumDatabaseSize

        @OptionGroup(title: "Allowed classes")
        var allow: AllowListOptions

        @OptionGroup(title: "Reading limits (each item)")
        var reading: ReadingOptions

        func validate() throws {
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
            guard maximumContainerDepth >= 1 else { throw ValidationError("--max-container-depth must be at least 1") }
            guard maximumDatabaseSize >= 1 else { throw ValidationError("--max-database-size must be at least 1") }
        }

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let destination = OutputFile(path: output)
                let format = self.format?.format ?? (destination.isTerminal ? .text : .jsonl)
                // CF's own nesting cap unless --max-depth says otherwise: nothing deeper comes
                // from Apple's writers, and each level costs every worker stack.
                let reading = self.reading.defaultingDepth(to: PropertyListReadOptions.default.maximumDepth)
                var options = SweepOptions(jobs: jobs, readOptions: reading.archiveReadOptions, allowList: allow.allowList,
                                           includesJSON: includesJSON, maximumDatabaseSize: maximumDatabaseSize,
                                           maximumContainerDepth: maximumContainerDepth)
                options.capturesGraphs = format == .html
                options.workerStackSize = reading.workerStackSize
                let sweeper = Sweeper(options: options)
                guard var writer = SweepReportWriter(format: format, title: "archivist sweep " + paths.joined(separator: " ")) else { return }
                let bar = ProgressBar()
                let linesOnTerminal = destination.isTerminal
                let summary = try destination.stream { (sink) throws(CommandFailure) -> SweepSummary in
                    sink.write(writer.begin())
                    do throws(SweepError) {
                        // A failed output or a reader gone (`| head`) ends the sweep: the rest of
                        // an extraction is not read for nobody.
                        let summary = try sweeper.sweep(paths, progress: bar.enabled ? { progress in
                            bar.draw(fraction: progress.fraction, detail: progress.detail, done: false)
                        } : nil, shouldStop: { sink.hasStopped }, emit: { item in
                            // Lines on the terminal the bar is drawn on: clear it first.
                            if linesOnTerminal { bar.finish() }
                            var item = item
                            item.error = item.error.map(CommandFailure.namingFlags)
                            sink.write(writer.item(item))
                        })
                        bar.finish()
                        sink.write(writer.end(summary))
                        return summary
                    } catch {
                        bar.finish()
                        throw CommandFailure(file: error.path, message: error.message)
                    }
                }
                if output != nil, output != "-", Terminal.progressEnabled() {
                    StandardError.write("\(summary.items) items (\(summary.errors) unreadable) in \(summary.examined) files and members; report written to \(output ?? "")\n")
                }
                // The report is whole but the sweep is not: say why, and fail.
                if summary.containersNotOpened > 0, let missing = LibArchive.loadFailure() {
                    let count = summary.containersNotOpened
                    throw CommandFailure(message: "\(count) \(count == 1 ? "zip or tar was" : "zips and tars were") not opened: \(missing)")
                }
            }
        }
    }
}
