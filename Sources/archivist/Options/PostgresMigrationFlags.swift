import ArgumentParser
import PostgresTable

/// `migrate`'s flags for a PostgreSQL table.
struct PostgresMigrationFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Write the new values into this column (bytea; jsonb or text for JSON; text for XML) and leave the source as it is.", valueName: "COLUMN"))
    var into: String?

    @Option(help: ArgumentHelp("Keep each changed row's key and old value in this table (created if missing), written in the same transaction as the change.", valueName: "[SCHEMA.]NAME"))
    var backupTable: String?

    @Option(help: "Connections converting at once in this process, each on its own part of the keys.")
    var workers: Int?

    @Flag(help: "Show, from the data itself, how many rows each shard (of --shard's N) still has to convert, and change nothing.")
    var status = false

    @Option(help: ArgumentHelp("Write at most this many rows a second (all workers together).", valueName: "ROWS_PER_SECOND"))
    var maxRate: Double?

    @Option(help: ArgumentHelp("Sleep this long after each batch (500ms, 2s).", valueName: "DURATION"))
    var pauseBetweenBatches: DurationArgument?

    @Option(help: ArgumentHelp("A batch that cannot get its row locks in this time is rolled back and retried later, not waited on (500ms, 2s).", valueName: "DURATION"))
    var lockTimeout: DurationArgument?

    @Option(help: ArgumentHelp("Pause while any standby in pg_stat_replication replays further behind than this (10s); needs pg_monitor.", valueName: "DURATION"))
    var maxReplicationLag: DurationArgument?

    var isUsed: Bool {
        into != nil || backupTable != nil || workers != nil || status || maxRate != nil || pauseBetweenBatches != nil
            || lockTimeout != nil || maxReplicationLag != nil
    }

    func validate(source: String) throws {
        guard PostgresURL.isPostgresURL(source) else {
            if isUsed {
                throw ValidationError("--into, --backup-table, --workers, --status, --max-rate, --pause-between-batches, --lock-timeout and --max-replication-lag are for PostgreSQL URLs (postgres://…)")
            }
            return
        }
        if let workers, workers < 1 || workers > 64 { throw ValidationError("--workers must be from 1 to 64") }
        if let maxRate, !(maxRate > 0) { throw ValidationError("--max-rate must be above 0") }
        if into != nil, backupTable != nil {
            throw ValidationError("--backup-table keeps old values of an in-place migration; with --into the source column keeps them itself")
        }
    }
}
