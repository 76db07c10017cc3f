/// What a migration did (or, for a dry run, would do).
public struct MigrationResult: Sendable {
    public var path: String
    public var location: AttributeLocation
    public var target: MigrationOptions.Target
    public var dryRun: Bool
    /// The backup made before the first write, if any.
    public var backupPath: String?
    /// Rows in scope.
    public var total = 0
    /// Rows rewritten (for a dry run: that would be).
    public var converted = 0
    public var skipped: [MigrationSkipReason: Int] = [:]
    public var failedByReason: [MigrationFailureReason: Int] = [:]
    /// The first `maximumListedFailures` failed rows, in key order.
    public var failures: [MigrationFailure] = []
    /// Classes to allow so that the refused rows convert, most needed first.
    public var suggestedAdditions: [String] = []
    /// How many refused rows each suggested class would accept.
    var suggestionCounts: [String: Int] = [:]
    /// Transactions committed.
    public var batches = 0
    public var elapsed: Double = 0

    public var skippedCount: Int { skipped.values.reduce(0, +) }
    public var failedCount: Int { failedByReason.values.reduce(0, +) }
    public var hasFailures: Bool { failedCount > 0 }
}
