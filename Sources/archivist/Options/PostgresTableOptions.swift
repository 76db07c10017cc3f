import ArgumentParser
import PostgresTable

/// What a PostgreSQL source names, for `scan` and `migrate` given a `postgres://` URL.
struct PostgresTableOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The table, as SQL names it: unquoted names fold to lower case, \"Quoted\" ones keep theirs; without a schema, the search path decides.", valueName: "[SCHEMA.]TABLE"))
    var table: String?

    @Option(help: ArgumentHelp("The bytea (or text) column of blobs.", valueName: "COLUMN"))
    var column: String?

    @Option(help: ArgumentHelp("The unique NOT NULL smallint, integer, bigint or uuid column batches are ordered by (default: the primary key).", valueName: "COLUMN"))
    var key: String?

    @Option(help: ArgumentHelp("Take the K-th of N disjoint parts of the keys (by PostgreSQL's hash of the key): N processes, on N machines if need be, together cover every row once.", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp("How long to wait for the server (500ms, 5s, 1min; default 10s or the URL's connect_timeout).", valueName: "DURATION"))
    var connectTimeout: DurationArgument?

    /// Whether any of these flags was given.
    var isUsed: Bool { table != nil || column != nil || key != nil || shard != nil || connectTimeout != nil }

    /// Checks them against the source: required for a URL, refused for a file.
    func validate(source: String) throws {
        guard PostgresURL.isPostgresURL(source) else {
            if isUsed { throw ValidationError("--table, --column, --key, --shard and --connect-timeout are for PostgreSQL URLs (postgres://…)") }
            return
        }
        guard table != nil, column != nil else {
            throw ValidationError("a PostgreSQL source needs --table [SCHEMA.]TABLE and --column COLUMN")
        }
        if let shard {
            do { _ = try PostgresShard(parsing: shard) } catch { throw ValidationError(error.description) }
        }
    }

    var request: PostgresTableLocation.Request {
        PostgresTableLocation.Request(table: table ?? "", column: column ?? "", key: key)
    }

    var parsedShard: PostgresShard { shard.flatMap { try? PostgresShard(parsing: $0) } ?? .all }
}

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
