import Foundation

/// Reads a property list in any supported format, detected from its bytes.
public struct PropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Reads `data`, whose format is detected from its content.
    ///
    /// - Returns: the root value and the format it was read from.
    /// - Throws: `PropertyListError` saying what is wrong and where.
    public func read(_ data: Data) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
        try options.checkInputSize(data.count)
        guard let format = PropertyListFormat.detect(data) else {
            throw PropertyListError(.unrecognizedFormat, data.isEmpty ? "empty input" : "not a property list", at: .byteOffset(0))
        }
        return (try read(data, as: format), format)
    }

    /// Reads `data` as the given format.
    public func read(_ data: Data, as format: PropertyListFormat) throws(PropertyListError) -> PropertyListValue {
        try options.checkInputSize(data.count)
        switch format {
        case .binary: return try BinaryPropertyListReader(options: options).read(data)
        case .xml: return try XMLPropertyListReader(options: options).read(data)
        case .openStep: return try OpenStepPropertyListReader(options: options).read(data)
        case .json: return try JSONPropertyListReader(options: options).read(data)
        }
    }
}
