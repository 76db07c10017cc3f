/// How far a sweep has come, for a progress bar.
public struct SweepProgress: Sendable, Hashable {
    /// Files and container members looked at.
    public var examined: Int
    /// Items found so far.
    public var items: Int
    /// Bytes of the given paths read through: files' sizes, containers' compressed bytes.
    public var bytes: Int64
    /// What `bytes` will be at the end.
    public var totalBytes: Int64
    /// Seconds since the sweep started.
    public var elapsed: Double

    public init(examined: Int, items: Int, bytes: Int64, totalBytes: Int64, elapsed: Double) {
        self.examined = examined
        self.items = items
        self.bytes = bytes
        self.totalBytes = totalBytes
        self.elapsed = elapsed
    }

    public var bytesPerSecond: Double { elapsed > 0 ? Double(bytes) / elapsed : 0 }

    /// Seconds left at the rate so far; nil until there is a rate.
    public var estimatedSecondsLeft: Double? {
        guard bytes > 0, elapsed > 0.5, totalBytes >= bytes else { return nil }
        return Double(totalBytes - bytes) / bytesPerSecond
    }
}
