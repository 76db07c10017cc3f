import Foundation

/// Reads JSON property lists. (Stub: being written.)
public struct JSONPropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        throw PropertyListError(.unrecognizedFormat, "JSON reader not written yet")
    }
}
