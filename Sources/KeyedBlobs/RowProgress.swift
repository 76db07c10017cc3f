import Foundation
import PropertyList

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

    /// How much of the work is done, from 0 to 1 (1 when there is nothing to do).
    public var fraction: Double { total > 0 ? min(1, Double(processed) / Double(total)) : 1 }

    /// `1,000/4,000 rows  500 rows/s  ETA 6 s  3 failed  paused: …`: the line beside a progress
    /// bar, with the rows that failed when there are any, and `note` (why the work is paused)
    /// when there is one.
    public func detail(failed: Int = 0, note: String? = nil) -> String {
        var text = "\(CountText.number(processed))/\(CountText.number(total)) rows  \(CountText.number(Int(rowsPerSecond))) rows/s"
        if let left = estimatedSecondsLeft { text += String(format: "  ETA %.0f s", left.rounded(.up)) }
        if failed > 0 { text += "  \(CountText.number(failed)) failed" }
        if let note { text += "  \(note)" }
        return text
    }
}
