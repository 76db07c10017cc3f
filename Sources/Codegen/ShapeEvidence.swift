import Foundation

/// What inference has seen at one position of the payloads, in more detail than the final
/// `PayloadShape`: exact integer ranges, what every string could be read as, each record's
/// keys. `PayloadShapeInferrer` joins one value's evidence into the running total, then turns
/// the total into a shape.
indirect enum ShapeEvidence: Sendable, Hashable {
    case unknown
    /// Only null seen.
    case null
    case bool
    case integer(IntegerRange)
    /// `fitsFloat`: every value is the shortest spelling of a Float.
    case real(fitsFloat: Bool)
    case string(StringReadings)
    case date
    case data
    /// URL's Codable form in a property list, `{"relative": "…"}`.
    case url
    case color(hasColorSpace: Bool)
    case array(ShapeEvidence)
    case map(ShapeEvidence)
    case record(RecordEvidence)
    case optional(ShapeEvidence)
    /// One member per category, none null or optional, in category order.
    case oneOf([ShapeEvidence])
}

/// The smallest and largest integer seen.
struct IntegerRange: Sendable, Hashable {
    var lower: Int128
    var upper: Int128

    init(_ value: Int128) {
        lower = value
        upper = value
    }

    init(lower: Int128, upper: Int128) {
        self.lower = lower
        self.upper = upper
    }

    func union(_ other: IntegerRange) -> IntegerRange {
        IntegerRange(lower: min(lower, other.lower), upper: max(upper, other.upper))
    }

    /// The narrowest Swift integer holding the range; nil when none does (a negative value and
    /// one above `Int64.max`, or a 128-bit value).
    var width: IntegerWidth? {
        if lower >= Int128(Int8.min), upper <= Int128(Int8.max) { return .int8 }
        if lower >= Int128(Int16.min), upper <= Int128(Int16.max) { return .int16 }
        if lower >= Int128(Int32.min), upper <= Int128(Int32.max) { return .int32 }
        if lower >= Int128(Int64.min), upper <= Int128(Int64.max) { return .int64 }
        if lower >= 0, upper <= Int128(UInt64.max) { return .uint64 }
        return nil
    }

    /// Whether every value converts to a Float exactly (|v| ≤ 2^24).
    var fitsFloat: Bool { lower >= -(1 << 24) && upper <= 1 << 24 }

    /// Whether every value is a byte, as `deferredToData` writes data.
    var isBytes: Bool { lower >= 0 && upper <= 255 }
}

/// What every string seen at a position could also be read as.
struct StringReadings: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let uuid = StringReadings(rawValue: 1)
    static let url = StringReadings(rawValue: 2)
    /// Only looked for under the `iso8601` date strategy.
    static let iso8601Date = StringReadings(rawValue: 4)
    /// Only looked for under the `base64` data strategy; never enough alone to call a field data.
    static let base64 = StringReadings(rawValue: 8)
}

/// The fields of the objects seen at a position, in the order keys were first seen.
struct RecordEvidence: Sendable, Hashable {
    var keys: [String] = []
    var fields: [String: ShapeEvidence] = [:]
}

/// The kind of value a decoder sees before it looks at a type: values of two categories can
/// only be read by a `oneOf`, values of one category by one type.
enum ShapeCategory: Int, Sendable, Hashable, Comparable {
    case null, bool, number, string, date, data, array, object

    static func < (a: ShapeCategory, b: ShapeCategory) -> Bool { a.rawValue < b.rawValue }
}
