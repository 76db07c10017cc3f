import KeyedBlobs

/// How `PostgresMigrator` runs: the engine's options, and what only a server has.
public struct PostgresMigrationOptions: Sendable {
    /// Conversion, batch size, dry run, rate and pauses: as for every table of keyed blobs.
    public var migration: KeyedBlobMigrationOptions
    /// Connections working at once in this process (`--workers`), each on its own part of the
    /// keys.
    public var workers: Int
    /// The part of the keys this process takes (`--shard K/N`).
    public var shard: PostgresShard
    /// Write into this column instead of in place (`--into`).
    public var into: String?
    /// Keep each changed row's key and old value in this table (`--backup-table`), created
    /// when missing, written in the same transaction as the change. In place only.
    public var backupTable: String?
    /// Seconds a batch may wait for its row locks before it is rolled back and retried later
    /// (`--lock-timeout`); nil waits as long as the server's own `lock_timeout` says.
    public var lockTimeout: Double?
    /// Pause while a standby replays further behind than this, in seconds
    /// (`--max-replication-lag`).
    public var maximumReplicationLag: Double?
    /// Seconds to wait for the server (`--connect-timeout`).
    public var connectTimeout: Double?
    /// The replication-lag query; tests, which have no standby, replace it.
    package var replicationLagSQL = ReplicationLagProbe.defaultSQL

    public init(migration: KeyedBlobMigrationOptions, workers: Int = 1, shard: PostgresShard = .all, into: String? = nil,
                backupTable: String? = nil, lockTimeout: Double? = nil, maximumReplicationLag: Double? = nil,
                connectTimeout: Double? = nil) {
        self.migration = migration
        self.workers = workers
        self.shard = shard
        self.into = into
        self.backupTable = backupTable
        self.lockTimeout = lockTimeout
        self.maximumReplicationLag = maximumReplicationLag
        self.connectTimeout = connectTimeout
    }
}
