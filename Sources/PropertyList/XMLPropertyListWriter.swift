import Foundation

/// Writes XML property lists. (Stub: being written.)
public struct XMLPropertyListWriter: Sendable {
    public init() {}

    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        throw PropertyListError(.unrepresentable, "XML writer not written yet")
    }
}
