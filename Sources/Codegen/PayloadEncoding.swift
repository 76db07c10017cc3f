import PropertyList

/// How the payloads spell what JSON has no type for: the strategies `unarchive` and `migrate`
/// wrote them with, which the generated type's decoder must use too.
///
/// Inference reads each value as that decoder will: with `secondsSince1970`, a date read from an
/// archive and a number read from an already-migrated JSON row are the same field; with
/// `iso8601`, strings that are all ISO 8601 dates are dates.
public struct PayloadEncoding: Sendable, Hashable {
    /// The decoder the payloads are for.
    public enum Format: String, Sendable, Hashable {
        /// `JSONDecoder`: dates and data follow the strategies; URLs are strings.
        case json
        /// `PropertyListDecoder`: dates and data are native; a URL is `{"relative": …}`.
        case propertyList
    }

    public var format: Format
    public var dateStrategy: JSONWriteOptions.DateEncodingStrategy
    public var dataStrategy: JSONWriteOptions.DataEncodingStrategy

    public init(format: Format = .json, dateStrategy: JSONWriteOptions.DateEncodingStrategy = .deferredToDate,
                dataStrategy: JSONWriteOptions.DataEncodingStrategy = .base64) {
        self.format = format
        self.dateStrategy = dateStrategy
        self.dataStrategy = dataStrategy
    }

    /// JSON with JSONEncoder's default strategies: what `JSONDecoder()` reads as it is.
    public static let json = PayloadEncoding()
    /// A property list: what `PropertyListDecoder()` reads.
    public static let propertyList = PayloadEncoding(format: .propertyList)

    /// The JSON kind a date is written as: a number, or an ISO 8601 string.
    var dateCategory: ShapeCategory {
        guard format == .json else { return .date }
        return dateStrategy == .iso8601 ? .string : .number
    }

    /// The JSON kind data is written as: a base64 string, or an array of bytes.
    var dataCategory: ShapeCategory {
        guard format == .json else { return .data }
        return dataStrategy == .base64 ? .string : .array
    }
}
