/// Where a migration is, reported after every committed batch.
public struct MigrationProgress: Sendable, Hashable {
    /// Rows looked at so far.
    public var processed: Int
    /// Rows in scope when the migration started.
    public var total: Int
    public var converted: Int
    public var skipped: Int
    public var failed: Int
    /// Seconds since the first batch started (the backup excluded).
    public var elapsed: Double

    public var rowsPerSecond: Double { elapsed > 0 ? Double(processed) / elapsed : 0 }
    /// Seconds left at the current rate; nil before there is a rate.
    public var estimatedSecondsLeft: Double? {
        guard rowsPerSecond > 0, total >= processed else { return nil }
        return Double(total - processed) / rowsPerSecond
    }
}
