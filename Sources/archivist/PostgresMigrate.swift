import ArgumentParser
import Foundation
import KeyedBlobs
import PostgresTable
import PropertyList

extension Archivist.Migrate {
    /// `archivist migrate postgres://… --table T --column C --to FORMAT`: the archives of a
    /// PostgreSQL column converted by the shared engine, or `--status`.
    func runPostgres() throws {
        var failed = false
        try reportingFailures { () throws(CommandFailure) in
            let url = PostgresURL(store)
            let usesColors = Terminal.colorsEnabled()
            var bar = ProgressBar(enabled: Terminal.progressEnabled())
            if postgresFlags.status {
                let scanner = PostgresScanner(options: PostgresScanOptions(readOptions: reading.archiveReadOptions,
                                                                           workerStackSize: reading.workerStackSize,
                                                                           connectTimeout: postgres.connectTimeout?.seconds))
                let report: PostgresStatusReport
                let renames = try renaming.parsed(file: url.redacted)
                do throws(PostgresError) {
                    report = try scanner.status(url, postgres.request, target: to.library, renames: renames, into: postgresFlags.into,
                                                shards: postgres.parsedShard.count, progress: bar.enabled ? { bar.update($0) } : nil)
                } catch {
                    bar.finish()
                    throw CommandFailure(file: url.redacted, message: error.description)
                }
                bar.finish()
                try write(format == .json ? nil : report.text(usesColors: usesColors), json: report.jsonValue, source: url.redacted)
                return
            }
            // Bad renames and classes are refused before the server is touched.
            var conversion = options.conversion
            conversion.classRenames = try renaming.parsed(file: url.redacted)
            let engine = KeyedBlobMigrationOptions(conversion: conversion, dryRun: dryRun, batchSize: batchSize ?? 2_000,
                                                   workerStackSize: reading.workerStackSize, maximumRate: postgresFlags.maxRate,
                                                   pauseBetweenBatches: postgresFlags.pauseBetweenBatches?.seconds ?? 0)
            let migrator = PostgresMigrator(options: PostgresMigrationOptions(
                migration: engine, workers: postgresFlags.workers ?? 1, shard: postgres.parsedShard, into: postgresFlags.into,
                backupTable: postgresFlags.backupTable, lockTimeout: postgresFlags.lockTimeout?.seconds,
                maximumReplicationLag: postgresFlags.maxReplicationLag?.seconds, connectTimeout: postgres.connectTimeout?.seconds))
            let result: PostgresMigrationResult
            do throws(PostgresError) {
                result = try migrator.migrate(url, postgres.request) { progress in
                    bar.update(progress, failed: progress.failed, note: progress.pausedBecause)
                }
            } catch {
                bar.finish()
                throw CommandFailure(file: url.redacted, message: error.description)
            }
            bar.finish()
            failed = result.hasFailures
            try write(format == .json ? nil : result.text(usesColors: usesColors), json: result.jsonValue, source: url.redacted)
        }
        if failed { throw ExitCode(1) }
    }

    /// The report: `text` when given, else the JSON.
    func write(_ text: String?, json: PropertyListValue, source: String) throws(CommandFailure) {
        if let text { return try OutputFile(path: nil).write(Data(text.utf8)) }
        let data: Data
        do throws(PropertyListError) {
            data = try ReportFormat.jsonReport(json)
        } catch {
            throw CommandFailure(file: source, message: "cannot write the report: \(error.description)")
        }
        try OutputFile(path: nil).write(data)
    }
}
