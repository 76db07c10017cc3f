/// One row left untouched, and why.
public struct MigrationFailure: Sendable, Hashable {
    /// `Z_PK` (or rowid).
    public var primaryKey: Int64
    public var reason: MigrationFailureReason
    public var message: String

    public init(primaryKey: Int64, reason: MigrationFailureReason, message: String) {
        self.primaryKey = primaryKey
        self.reason = reason
        self.message = message
    }
}
