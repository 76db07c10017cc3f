import Foundation

/// Reads XML property lists. (Stub: being written.)
public struct XMLPropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        throw PropertyListError(.unrecognizedFormat, "XML reader not written yet")
    }
}
