import Foundation

/// How `KeyedBlobMigrator` runs: what each row becomes, batch sizes, threads and pacing.
public struct KeyedBlobMigrationOptions: Sendable {
    /// What each value becomes, and how it is checked.
    public var conversion: ConversionOptions
    /// Count what would change, write nothing.
    public var dryRun: Bool
    /// Rows per batch, each batch one transaction.
    public var batchSize: Int
    /// How many failed rows (and changed rows) are kept with their key; the rest are counted.
    public var maximumListedFailures: Int
    /// Threads converting each batch. Default: the active cores.
    public var parallelism: Int
    /// Stack size for those threads (nil: the system's), for depth limits above 512.
    public var workerStackSize: Int?
    /// Rows per second at most, over all lanes (`--max-rate`); nil: as fast as it goes.
    public var maximumRate: Double?
    /// Seconds each lane sleeps after each batch (`--pause-between-batches`).
    public var pauseBetweenBatches: Double
    /// How often a batch whose row locks were not granted is tried again before its rows are
    /// reported as `locked`.
    public var retryLimit: Int
    /// Write values already in the target format as they are: for a table that writes into
    /// another column, which must end up complete.
    public var copiesValuesInTargetFormat = false
    /// Seconds between two checks of a pause reason (a standby behind) while it holds.
    public var pausePollInterval: Double

    /// `batchSize` unless one is given: the engine's default, which a PostgreSQL table takes (a
    /// store's is `MigrationOptions.defaultBatchSize`).
    public static let defaultBatchSize = 2_000

    public init(conversion: ConversionOptions, dryRun: Bool = false, batchSize: Int = defaultBatchSize, maximumListedFailures: Int = 1_000,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, workerStackSize: Int? = nil,
                maximumRate: Double? = nil, pauseBetweenBatches: Double = 0, retryLimit: Int = 5, pausePollInterval: Double = 1) {
        self.conversion = conversion
        self.dryRun = dryRun
        self.batchSize = batchSize
        self.maximumListedFailures = maximumListedFailures
        self.parallelism = parallelism
        self.workerStackSize = workerStackSize
        self.maximumRate = maximumRate
        self.pauseBetweenBatches = pauseBetweenBatches
        self.retryLimit = retryLimit
        self.pausePollInterval = pausePollInterval
    }
}
