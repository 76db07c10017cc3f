/// Where a scan is, reported after every batch of rows.
public struct ScanProgress: Sendable, Hashable {
    /// Rows read so far, over every table.
    public var processed: Int
    /// Rows in the tables being scanned, counted when the scan started.
    public var total: Int
    /// Seconds since the scan started.
    public var elapsed: Double

    public var rowsPerSecond: Double { elapsed > 0 ? Double(processed) / elapsed : 0 }
    /// Seconds left at the current rate; nil before there is a rate.
    public var estimatedSecondsLeft: Double? {
        guard rowsPerSecond > 0, total >= processed else { return nil }
        return Double(total - processed) / rowsPerSecond
    }
}
