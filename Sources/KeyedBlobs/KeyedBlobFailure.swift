/// One row left untouched, and why.
public struct KeyedBlobFailure<Key: Hashable & Sendable>: Sendable, Hashable {
    public var key: Key
    public var reason: MigrationFailureReason
    public var message: String

    public init(key: Key, reason: MigrationFailureReason, message: String) {
        self.key = key
        self.reason = reason
        self.message = message
    }
}
