/// Rows read together, in key order.
public protocol KeyedBlobBatch: Sendable {
    associatedtype Key
    var keys: [Key] { get }
    /// Each row's value, as the engine converts it.
    var values: [KeyedBlobValue] { get }
}
