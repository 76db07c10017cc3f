import ArchivePayload
import ArgumentParser
import CoreDataModel
import CoreDataStore
import Foundation
import KeyedBlobs
import PostgresTable
import PropertyList

extension Archivist {
    /// `archivist migrate STORE --attribute Entity.attribute --to json|plist|xml`: rewrite one
    /// Transformable attribute's archives in place, safely.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "migrate",
            abstract: "Convert one attribute's keyed archives in place to JSON or property-list payloads, or back (--to archive).",
            discussion: """
                First checks that the store and its folder can be written and that the store can \
                be locked (waiting --busy-timeout seconds for another process), else exits 1 with \
                nothing changed. Backs the store up with SQLite's online backup API just before \
                the first row changes (beside the store, numbered if the name is taken, or at \
                --backup; --no-backup skips it; a run with nothing to convert makes none; a run \
                that fails before changing anything removes its backup), then converts the attribute in batches, each in \
                its own transaction, so a kill at any moment leaves every value either old or \
                new. Each archive is checked against the allow-list (the transformer's defaults \
                plus --allow), mapped as `unarchive` maps it, written, read back and compared \
                before the row is updated; Z_OPT is incremented on every changed row. NULLs and \
                values already in the target format are skipped, so a rerun finishes an \
                interrupted migration. With the store's model (or --model), Entity.attribute is \
                the model's name and an app-defined transformer given with --transformer judges \
                its archives; afterwards the model change the app needs is printed. Rows that \
                cannot be converted (damaged, refused, cyclic, \
                external files, not archives) are left untouched and listed with their Z_PK. \
                --dry-run reads the store without changing any file, as scan does, and reports \
                what would happen. \
                --to archive renames classes in every archive (--rename-class OLD=NEW, as \
                rewrite does; archives without them are skipped) and archives JSON or plist \
                payloads back with the classes --class names (as archive does), with the same \
                backup, batches, verification and Z_OPT. Exit status: 0 when no row failed, 1 otherwise.

                Given a PostgreSQL URL, it converts one column (--table, --column) in place or \
                --into another (bytea; jsonb or text for JSON; text for XML), in keyset batches \
                of --batch rows, each batch one transaction in which every row is updated only if \
                it still holds the bytes read (a row the app changed meanwhile is skipped, never \
                overwritten) and, with --backup-table, its old value is kept. --workers N runs N \
                connections; --shard K/N takes one of N disjoint parts of the keys, so N \
                processes on N machines convert every row once; --status counts, from the data, \
                what each shard still has to do. --max-rate, --pause-between-batches, \
                --lock-timeout and --max-replication-lag keep it gentle on a live primary.
                """
        )

        enum Target: String, ExpressibleByArgument, CaseIterable {
            case json, plist, xml, archive

            var library: MigrationOptions.Target {
                switch self {
                case .json: .json
                case .plist: .propertyList
                case .xml: .xml
                case .archive: .archive
                }
            }
        }

        @Argument(help: "The Core Data store (.sqlite), or any SQLite database; or a postgres:// URL with --table and --column.")
        var store: String

        @Option(help: ArgumentHelp("The attribute to convert: Entity.attribute (any case), or table.column.", valueName: "Entity.attribute"))
        var attribute: String?

        @Option(help: "The new format: json, plist (binary) or xml; or archive, to rename classes in archives (--rename-class) and archive JSON or plist payloads back (--class).")
        var to: Target

        @Flag(help: "Report what would change without writing anything (the store is opened read-only).")
        var dryRun = false

        @Option(help: ArgumentHelp("Where to put the backup (default: <store>.archivist-backup-<timestamp>.sqlite beside it). Must not exist.", valueName: "PATH"))
        var backup: String?

        @Flag(help: "Do not back the store up first.")
        var noBackup = false

        @Option(name: [.customLong("batch-size"), .customLong("batch")], help: "Rows per transaction (default: \(MigrationOptions.defaultBatchSize) for a store, \(KeyedBlobMigrationOptions.defaultBatchSize) for PostgreSQL).")
        var batchSize: Int?

        @Option(help: ArgumentHelp("How long to wait for another process's lock on the store before giving up, nothing changed (default: 5).", valueName: "SECONDS"))
        var busyTimeout: Double?

        @Option(help: "Output format of the summary: text, or json for machines.")
        var format: OutputFormatArgument<ReportFormats> = .init(.text)

        @OptionGroup(title: "Payload")
        var mapping: PayloadMappingOptions

        @OptionGroup(title: "Back to archives (--to archive)")
        var renaming: ClassRenameOptions

        @OptionGroup(title: "Back to archives (--to archive)")
        var classes: ClassAssignmentOptions

        @OptionGroup(title: "Allowed classes")
        var allow: AllowListOptions

        @OptionGroup(title: "Model")
        var model: ModelOptions

        @OptionGroup(title: "JSON output")
        var json: JSONOutputOptions

        @OptionGroup(title: "Reading limits")
        var reading: ReadingOptions

        @OptionGroup(title: "PostgreSQL")
        var postgres: PostgresTableOptions

        @OptionGroup(title: "PostgreSQL migration")
        var postgresFlags: PostgresMigrationFlags

        func validate() throws {
            if backup != nil, noBackup { throw ValidationError("--backup and --no-backup contradict each other") }
            if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
            if to != .archive, !renaming.renames.isEmpty || !classes.assignments.isEmpty {
                throw ValidationError("--rename-class and --class go with --to archive")
            }
            if let busyTimeout, !(busyTimeout >= 0) || busyTimeout > 86_400 { throw ValidationError("--busy-timeout takes seconds from 0 to 86400") }
            if store == "-" { throw ValidationError("migrate rewrites the store in place: give its path, not -") }
            try postgres.validate(source: store)
            try postgresFlags.validate(source: store)
            try model.validate(source: store)
            if PostgresURL.isPostgresURL(store) {
                if attribute != nil { throw ValidationError("--attribute names a Core Data attribute; a PostgreSQL column is --table and --column") }
                if backup != nil || noBackup { throw ValidationError("--backup and --no-backup copy a store file; for PostgreSQL, --backup-table keeps old values") }
                if busyTimeout != nil { throw ValidationError("--busy-timeout waits for a store's lock; for PostgreSQL, --lock-timeout bounds the wait for row locks") }
            } else if attribute == nil {
                throw ValidationError("Missing expected argument '--attribute <Entity.attribute>'")
            }
        }

        var options: MigrationOptions {
            let backupChoice: MigrationOptions.Backup = noBackup ? .none : backup.map { .path($0) } ?? .besideStore
            var options = MigrationOptions(
                target: to.library, allowList: allow.allowList,
                payloadOptions: mapping.payloadOptions(target: to == .json ? .json : .propertyList, maximumDepth: reading.maximumDepth),
                select: mapping.selectedPath, jsonOptions: json.options, readOptions: reading.archiveReadOptions,
                dryRun: dryRun, backup: backupChoice, batchSize: batchSize ?? MigrationOptions.defaultBatchSize,
                workerStackSize: reading.workerStackSize, archiveClasses: classes.classes)
            options.busyTimeout = busyTimeout ?? StoreConnection.defaultBusyTimeout
            return options
        }

        func run() throws {
            if PostgresURL.isPostgresURL(store) { return try runPostgres() }
            var failed = false
            try reportingFailures { () throws(CommandFailure) in
                // Bad renames and classes are refused before the store is touched.
                var options = self.options
                options.classRenames = try renaming.parsed(file: store)
                if let problem = classes.problem() { throw CommandFailure(file: store, message: problem) }
                options.model = model.choice
                options.transformers = try model.transformerLists()
                let result = try ProgressBar.showing { (bar) throws(StoreError) in
                    try AttributeMigrator(options: options).migrate(path: store, attribute: attribute ?? "") { bar.update($0, failed: $0.failed) }
                } failure: { CommandFailure(file: store, message: Diagnosis.storeFailure($0.description, path: store)) }
                failed = result.hasFailures
                try ReportJSON.write(format, file: store, wording: "cannot write the report as JSON", text: { result.text(usesColors: Terminal.colorsEnabled()) },
                                     json: { () throws(PropertyListError) in try ReportJSON.data(result.jsonValue) })
            }
            if failed { throw ExitCode(1) }
        }
    }
}

extension Archivist.Migrate {
    /// `archivist migrate postgres://… --table T --column C --to FORMAT`: the archives of a
    /// PostgreSQL column converted by the shared engine, or `--status`.
    func runPostgres() throws {
        var failed = false
        try reportingFailures { () throws(CommandFailure) in
            let url = PostgresURL(store)
            if postgresFlags.status {
                let scanner = PostgresScanner(options: PostgresScanOptions(readOptions: reading.archiveReadOptions,
                                                                           workerStackSize: reading.workerStackSize,
                                                                           connectTimeout: postgres.connectTimeout?.seconds))
                let renames = try renaming.parsed(file: url.redacted)
                let report = try ProgressBar.showing { (bar) throws(PostgresError) in
                    try scanner.status(url, postgres.request, target: to.library, renames: renames, into: postgresFlags.into,
                                       shards: postgres.parsedShard.count, progress: bar.updates())
                } failure: { CommandFailure(file: url.redacted, message: $0.description) }
                try ReportJSON.write(format, file: url.redacted, text: { report.text(usesColors: Terminal.colorsEnabled()) },
                                     json: { () throws(PropertyListError) in try ReportJSON.data(report.jsonValue) })
                return
            }
            // Bad renames and classes are refused before the server is touched.
            var conversion = options.conversion
            conversion.classRenames = try renaming.parsed(file: url.redacted)
            let engine = KeyedBlobMigrationOptions(conversion: conversion, dryRun: dryRun, batchSize: batchSize ?? KeyedBlobMigrationOptions.defaultBatchSize,
                                                   workerStackSize: reading.workerStackSize, maximumRate: postgresFlags.maxRate,
                                                   pauseBetweenBatches: postgresFlags.pauseBetweenBatches?.seconds ?? 0)
            let migrator = PostgresMigrator(options: PostgresMigrationOptions(
                migration: engine, workers: postgresFlags.workers ?? 1, shard: postgres.parsedShard, into: postgresFlags.into,
                backupTable: postgresFlags.backupTable, lockTimeout: postgresFlags.lockTimeout?.seconds,
                maximumReplicationLag: postgresFlags.maxReplicationLag?.seconds, connectTimeout: postgres.connectTimeout?.seconds))
            let result = try ProgressBar.showing { (bar) throws(PostgresError) in
                try migrator.migrate(url, postgres.request) { bar.update($0, failed: $0.failed, note: $0.pausedBecause) }
            } failure: { CommandFailure(file: url.redacted, message: $0.description) }
            failed = result.hasFailures
            try ReportJSON.write(format, file: url.redacted, text: { result.text(usesColors: Terminal.colorsEnabled()) },
                                 json: { () throws(PropertyListError) in try ReportJSON.data(result.jsonValue) })
        }
        if failed { throw ExitCode(1) }
    }
}
