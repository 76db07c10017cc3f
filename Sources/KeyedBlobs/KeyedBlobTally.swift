/// What a migration did to a table of keyed blobs (for a dry run: would do), row by row.
public struct KeyedBlobTally<Key: Hashable & Comparable & Sendable>: Sendable {
    /// Rows looked at.
    public var rows = 0
    /// Rows rewritten (for a dry run: that would be).
    public var converted = 0
    /// Rows already in the target format, copied as they are into another column.
    public var copied = 0
    public var skipped: [MigrationSkipReason: Int] = [:]
    public var failedByReason: [MigrationFailureReason: Int] = [:]
    /// The first failed rows, in key order (`maximumListedFailures` of them).
    public var failures: [KeyedBlobFailure<Key>] = []
    /// The first rows another writer changed meanwhile, in key order.
    public var changedKeys: [Key] = []
    /// How many refused rows each class would accept if allowed.
    public var suggestionCounts: [String: Int] = [:]
    /// Transactions committed.
    public var batches = 0
    /// Batches rolled back because their row locks were not granted in time, and tried again.
    public var retriedBatches = 0
    /// Seconds spent waiting for a reason the table gave (a standby behind).
    public var pausedSeconds: Double = 0
    public var elapsed: Double = 0

    public init() {}

    public var skippedCount: Int { skipped.values.reduce(0, +) }
    public var failedCount: Int { failedByReason.values.reduce(0, +) }
    public var hasFailures: Bool { failedCount > 0 }

    /// Classes to allow so that the refused rows convert, most needed first.
    public var suggestedAdditions: [String] {
        suggestionCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
    }

    /// Adds another lane's tally; lists stay in key order and within `limit`.
    public mutating func merge(_ other: Self, limit: Int) {
        rows += other.rows
        converted += other.converted
        copied += other.copied
        skipped.merge(other.skipped, uniquingKeysWith: +)
        failedByReason.merge(other.failedByReason, uniquingKeysWith: +)
        failures = Array((failures + other.failures).sorted { $0.key < $1.key }.prefix(limit))
        changedKeys = Array((changedKeys + other.changedKeys).sorted().prefix(limit))
        suggestionCounts.merge(other.suggestionCounts, uniquingKeysWith: +)
        batches += other.batches
        retriedBatches += other.retriedBatches
        pausedSeconds = max(pausedSeconds, other.pausedSeconds)
    }

    func progress(total: Int, elapsed: Double, pausedBecause: String? = nil) -> MigrationProgress {
        var progress = MigrationProgress(processed: rows, total: max(total, rows), converted: converted + copied, skipped: skippedCount,
                                         failed: failedCount, elapsed: elapsed)
        progress.pausedBecause = pausedBecause
        return progress
    }
}
