import Foundation

/// Reads OpenStep property lists. (Stub: being written.)
public struct OpenStepPropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        throw PropertyListError(.unrecognizedFormat, "OpenStep reader not written yet")
    }
}
