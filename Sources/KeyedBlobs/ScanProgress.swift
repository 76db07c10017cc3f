/// Where a scan is, reported after every batch of rows.
public struct ScanProgress: RowProgress, Hashable {
    /// Rows read so far, over every table.
    public var processed: Int
    /// Rows in the tables being scanned, counted when the scan started.
    public var total: Int
    /// Seconds since the scan started.
    public var elapsed: Double

    public init(processed: Int, total: Int, elapsed: Double) {
        self.processed = processed
        self.total = total
        self.elapsed = elapsed
    }
}
