import ArgumentParser
import Foundation
import KeyedBlobs
import PostgresTable
import PropertyList

extension Archivist.Scan {
    /// `archivist scan postgres://… --table T --column C`: what a column of a PostgreSQL table
    /// holds, read in read-only keyset batches.
    func runPostgres() throws {
        try reportingFailures { () throws(CommandFailure) in
            let url = PostgresURL(store)
            let scanner = PostgresScanner(options: PostgresScanOptions(
                allowList: allow.allowList, readOptions: reading.archiveReadOptions, workerStackSize: reading.workerStackSize,
                shard: postgres.parsedShard, connectTimeout: postgres.connectTimeout?.seconds))
            var bar = ProgressBar(enabled: Terminal.progressEnabled())
            let report: PostgresScanReport
            do throws(PostgresError) {
                report = try scanner.scan(url, postgres.request, progress: bar.enabled ? { bar.update($0) } : nil)
            } catch {
                bar.finish()
                throw CommandFailure(file: url.redacted, message: error.description)
            }
            bar.finish()
            try ReportJSON.write(format, file: url.redacted, text: { report.text(usesColors: Terminal.colorsEnabled()) },
                                 json: { () throws(PropertyListError) in try ReportJSON.data(report.jsonValue) })
        }
    }
}
