import KeyedBlobs

/// What a migration of a PostgreSQL column did (or, for a dry run, would do).
public struct PostgresMigrationResult: Sendable {
    /// The server and database, as a URL without its password.
    public var source: String
    public var location: PostgresTableLocation
    public var target: ConversionTarget
    /// The column written, when not in place (`--into`).
    public var into: PostgresColumn?
    public var backupTable: PostgresBackupTable?
    public var dryRun: Bool
    public var shard: PostgresShard
    public var workers: Int
    /// What became of every row.
    public var tally: KeyedBlobTally<PostgresKey>

    public var hasFailures: Bool { tally.hasFailures }
}
