import ArchivePayload
import ArgumentParser
import CoreDataModel
import CoreDataStore
import Foundation
import PropertyList

extension Archivist {
    /// `archivist scan STORE`: what every Transformable (BLOB) column of a store holds.
    struct Scan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report what each attribute of a Core Data store (or any SQLite file) holds.",
            discussion: """
                Opens the store read-only. For each entity.attribute of a Core Data store (or \
                table.column of another SQLite file) it counts the rows and the kinds of values: \
                keyed archives (binary or XML), plain property lists, JSON, images, external \
                references (Core Data's 0x02 header naming a file in .<store>_SUPPORT/_EXTERNAL_DATA), \
                unreadable values, other bytes and NULL. For archives it lists the classes seen \
                (values containing each) and the verdict of NSSecureUnarchiveFromDataTransformer's \
                default allow-list plus any --allow, with the classes to add. With the store's \
                model (its Z_MODELCACHE, or --model), attributes are named as the model names \
                them and each Transformable column is judged by its own transformer: \
                NSSecureUnarchiveFromData by its default list, an app-defined transformer by the \
                classes given with --transformer (otherwise its code judges, and the flag that \
                would judge it is shown). BLOB and Transformable columns are always detailed; \
                columns declared as numbers, dates or text are listed in one line unless they \
                hold a document. Exit status: 0, or 1 when the store cannot be read.
                """
        )

        @Argument(help: "The store: a Core Data .sqlite file, or any SQLite database.")
        var store: String

        @Option(help: "Output format: text, or json for machines.")
        var format: ReportFormat = .text

        @OptionGroup(title: "Allowed classes")
        var allow: AllowListOptions

        @OptionGroup(title: "Model")
        var model: ModelOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let scanner = StoreScanner(options: ScanOptions(allowList: allow.allowList, readOptions: reading.archiveReadOptions,
                                                                workerStackSize: reading.workerStackSize, model: model.choice,
                                                                transformers: try model.transformerLists()))
                let report: ScanReport
                var bar = ProgressBar(enabled: Terminal.progressEnabled())
                do throws(StoreError) {
                    report = try scanner.scan(path: store, progress: bar.enabled ? { bar.update($0) } : nil)
                } catch {
                    bar.finish()
                    throw CommandFailure(file: store, message: error.description)
                }
                bar.finish()
                switch format {
                case .text:
                    try OutputFile(path: nil).write(StoreReportText.render(report, colors: Palette(enabled: Terminal.colorsEnabled())))
                case .json:
                    try OutputFile(path: nil).write(try ReportFormat.jsonReport(report.jsonValue, file: store))
                }
            }
        }
    }
}
