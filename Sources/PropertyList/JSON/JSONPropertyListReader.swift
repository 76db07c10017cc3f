import Foundation

/// Reads JSON (RFC 8259) into property-list values.
///
/// Objects become dictionaries in the order written (a repeated key keeps its last value, as
/// JSONSerialization reads it, and is reported as a warning), integers that fit 128 bits become `.integer`, other numbers `.real` (`-0` too,
/// to keep its sign), and `null` becomes `.null`. Text may be UTF-8, UTF-16 or UTF-32, with or without a byte-order mark, as
/// JSONDecoder allows. Anything RFC 8259 forbids is refused with its line and column: leading
/// zeros, trailing commas, comments, unescaped control characters, NaN, numbers too large for a
/// Double, and text after the root value. A `\uD800` escape that pairs with nothing is refused,
/// unless `options.preservesInvalidUTF16` asks to keep it as `.invalidUTF16String`.
public struct JSONPropertyListReader: PropertyListTextReader {
    /// Limits for untrusted input, and whether to keep lone surrogates from `\u` escapes.
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Reads one document, adding a warning for each key repeated in a dictionary (resolved as
    /// `options.duplicateKeys` says) to `warnings`.
    public func read(_ data: Data, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try JSONParser.parse(data, options: options, warnings: &warnings)
    }
}
