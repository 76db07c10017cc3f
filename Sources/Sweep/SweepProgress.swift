import Foundation
import PropertyList

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

    /// How much of the bytes are read through, from 0 (0 too when there are none to read).
    public var fraction: Double { totalBytes > 0 ? Double(bytes) / Double(totalBytes) : 0 }

    /// Seconds left at the rate so far; nil until there is a rate.
    public var estimatedSecondsLeft: Double? {
        guard bytes > 0, elapsed > 0.5, totalBytes >= bytes else { return nil }
        return Double(totalBytes - bytes) / bytesPerSecond
    }

    /// `12 files  1,234 items  56.0 MB / 1.2 GB  40.0 MB/s  ETA 12 s`: the line beside a
    /// progress bar.
    public var detail: String {
        var text = "\(CountText.number(examined)) files  \(CountText.number(items)) items  "
            + "\(Self.megabytes(bytes)) / \(Self.megabytes(totalBytes))  \(Self.megabytes(Int64(bytesPerSecond)))/s"
        if let left = estimatedSecondsLeft { text += String(format: "  ETA %.0f s", left.rounded(.up)) }
        return text
    }

    static func megabytes(_ bytes: Int64) -> String {
        bytes >= 10_000_000_000 ? String(format: "%.1f GB", Double(bytes) / 1e9) : String(format: "%.1f MB", Double(bytes) / 1e6)
    }
}
