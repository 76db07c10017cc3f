/// Progress through the rows of a store, as `scan` and `migrate` report it.
public protocol RowProgress: Sendable {
    /// Rows looked at so far.
    var processed: Int { get }
    /// Rows in scope when the work started.
    var total: Int { get }
    /// Seconds since the work started.
    var elapsed: Double { get }
}

extension RowProgress {
    public var rowsPerSecond: Double { elapsed > 0 ? Double(processed) / elapsed : 0 }

    /// Seconds left at the current rate; nil before there is a rate.
    public var estimatedSecondsLeft: Double? {
        guard rowsPerSecond > 0, total >= processed else { return nil }
        return Double(total - processed) / rowsPerSecond
    }
}
