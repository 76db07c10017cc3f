import Foundation

/// Reads Binary property lists. (Stub: being written.)
public struct BinaryPropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        throw PropertyListError(.unrecognizedFormat, "Binary reader not written yet")
    }
}
