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
                try ReportJSON.write(format, file: url.redacted, text: { report.text(usesColors: usesColors) },
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
            try ReportJSON.write(format, file: url.redacted, text: { result.text(usesColors: usesColors) },
                                 json: { () throws(PropertyListError) in try ReportJSON.data(result.jsonValue) })
        }
        if failed { throw ExitCode(1) }
    }
}
