import KeyedBlobs

/// One row of a store left untouched, and why: the migration engine's failure, keyed by the
/// row's `Z_PK` (or rowid), which `primaryKey` names as a store does.
public typealias MigrationFailure = KeyedBlobFailure<Int64>

extension KeyedBlobFailure where Key == Int64 {
    /// `Z_PK` (or rowid): `key`, by the name a store gives it.
    public var primaryKey: Int64 {
        get { key }
        set { key = newValue }
    }

    public init(primaryKey: Int64, reason: MigrationFailureReason, message: String) {
        self.init(key: primaryKey, reason: reason, message: message)
    }
}
