/// Where a migration is, reported after every committed batch.
public struct MigrationProgress: RowProgress, Hashable {
    /// Rows looked at so far.
    public var processed: Int
    /// Rows in scope when the migration started.
    public var total: Int
    public var converted: Int
    public var skipped: Int
    public var failed: Int
    /// Seconds since the first batch started (the backup excluded).
    public var elapsed: Double
    /// Why the migration is waiting instead of writing, while it does (a standby behind).
    public var pausedBecause: String?

    public init(processed: Int, total: Int, converted: Int, skipped: Int, failed: Int, elapsed: Double) {
        self.processed = processed
        self.total = total
        self.converted = converted
        self.skipped = skipped
        self.failed = failed
        self.elapsed = elapsed
    }
}
