import Foundation

/// Writes property-list values as JSON, spelled as JSONEncoder spells the same values.
///
/// With the default options a default `JSONDecoder()` decodes the output into the Codable type
/// the property list came from: data is base64, a date is seconds since 2001-01-01. Reals use
/// Swift's shortest round-trip form without a trailing `.0`, `/` is written `\/`, and control
/// characters are `\u00XX`, all as JSONEncoder writes them. `JSONWriteOptions` describes how
/// UIDs, sets, null and non-string keys come out.
public struct JSONPropertyListWriter: Sendable {
    public var options: JSONWriteOptions

    public init(options: JSONWriteOptions = .init()) {
        self.options = options
    }

    /// The JSON text of `value`, UTF-8 encoded, without a trailing newline (as JSONEncoder).
    ///
    /// - Throws: `PropertyListError` with code `.unrepresentable` and the key path of a NaN or
    ///   infinite real (unless `nonConformingFloatEncodingStrategy` names strings for them), or of
    ///   a non-finite date written as ISO 8601.
    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        var emitter = JSONEmitter(options: options)
        try emitter.write(value, level: 0)
        return emitter.data()
    }
}

extension PropertyListError {
    /// The same error one level further from the root.
    package func under(_ component: String) -> PropertyListError {
        var copy = self
        copy.keyPath.insert(component, at: 0)
        return copy
    }
}
