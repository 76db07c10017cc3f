import Foundation

/// Writes JSON property lists. (Stub: being written.)
public struct JSONPropertyListWriter: Sendable {
    public init() {}

    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        throw PropertyListError(.unrepresentable, "JSON writer not written yet")
    }
}
