import ArchivePayload
import ArgumentParser
import CoreDataModel
import CoreDataStore
import Foundation
import KeyedBlobs
import PostgresTable
import PropertyList
import SystemInterface

extension Archivist {
    /// `archivist scan STORE`: what every Transformable (BLOB) column of a store holds.
    struct Scan: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "scan",
            abstract: "Report what each attribute of a Core Data store (or any SQLite file) holds.",
            discussion: """
                Reads the store without changing it or anything beside it (no -wal or -shm is \
                created, modification times stay), also in a read-only folder; a store with a \
                non-empty -wal or -journal is read through a private copy in TMPDIR. For each entity.attribute of a Core Data store (or \
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

                Given a PostgreSQL URL (postgres://USER@HOST:PORT/DB, with libpq's PG* variables, \
                ~/.pgpass, sslmode and host=/socket/dir), it reports on one column (--table, \
                --column) the same way, reading keyset batches in read-only transactions: a role \
                with only SELECT is enough. A password is never shown.
                """
        )

        @Argument(help: "The store: a Core Data .sqlite file, or any SQLite database; - reads one from standard input; or a postgres:// URL with --table and --column.")
        var store: String

        @Option(help: "Output format: text, or json for machines.")
        var format: OutputFormatArgument<ReportFormats> = .init(.text)

        @OptionGroup(title: "Allowed classes")
        var allow: AllowListOptions

        @OptionGroup(title: "Model")
        var model: ModelOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        @OptionGroup(title: "PostgreSQL")
        var postgres: PostgresTableOptions

        func validate() throws {
            try postgres.validate(source: store)
            try model.validate(source: store)
        }

        func run() throws {
            if PostgresURL.isPostgresURL(store) { return try runPostgres() }
            try reportingFailures { () throws(CommandFailure) in
                let scanner = StoreScanner(options: ScanOptions(allowList: allow.allowList, readOptions: reading.archiveReadOptions,
                                                                workerStackSize: reading.workerStackSize, model: model.choice,
                                                                transformers: try model.transformerLists()))
                // SQLite reads files, not streams: standard input is saved to a private file first.
                let input = try StandardInputCopy.ifNeeded(store)
                defer { input?.remove() }
                let path = input?.path ?? store
                var report = try ProgressBar.showing { (bar) throws(StoreError) in
                    try scanner.scan(path: path, progress: bar.updates())
                } failure: { CommandFailure(file: InputFile(path: store).displayName, message: Diagnosis.storeFailure($0.description, path: path)) }
                if input != nil { report.path = InputFile(path: store).displayName }
                try ReportJSON.write(format, file: store, wording: "cannot write the report as JSON", text: { report.text(usesColors: Terminal.colorsEnabled()) },
                                     json: { () throws(PropertyListError) in try ReportJSON.data(report.jsonValue) })
            }
        }
    }
}

extension Archivist.Scan {
    /// `archivist scan postgres://… --table T --column C`: what a column of a PostgreSQL table
    /// holds, read in read-only keyset batches.
    func runPostgres() throws {
        try reportingFailures { () throws(CommandFailure) in
            let url = PostgresURL(store)
            let scanner = PostgresScanner(options: PostgresScanOptions(
                allowList: allow.allowList, readOptions: reading.archiveReadOptions, workerStackSize: reading.workerStackSize,
                shard: postgres.parsedShard, connectTimeout: postgres.connectTimeout?.seconds))
            let report = try ProgressBar.showing { (bar) throws(PostgresError) in
                try scanner.scan(url, postgres.request, progress: bar.updates())
            } failure: { CommandFailure(file: url.redacted, message: $0.description) }
            try ReportJSON.write(format, file: url.redacted, text: { report.text(usesColors: Terminal.colorsEnabled()) },
                                 json: { () throws(PropertyListError) in try ReportJSON.data(report.jsonValue) })
        }
    }
}
