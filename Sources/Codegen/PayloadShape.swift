/// The shape of a set of payload values: what one Codable type must decode to read every one.
///
/// This is the typed intermediate between inference (`PayloadShapeInferrer`) and rendering
/// (`SwiftCodeGenerator`): neither reaches into the other.
public indirect enum PayloadShape: Sendable, Hashable {
    /// No value was ever seen here (the elements of arrays that were always empty, or a field
    /// that was only ever null).
    case unknown
    case bool
    /// Integers, all within the range of `width`.
    case integer(IntegerWidth)
    /// Numbers with a fraction (or integers mixed with such numbers).
    case real(RealWidth)
    case string
    /// Dates, as the payload's date strategy spells them.
    case date
    /// Bytes, as the payload's data strategy spells them.
    case data
    /// Strings that are all absolute URLs (or URL's Codable `{"relative": …}` in property lists).
    case url
    /// Strings that are all UUIDs.
    case uuid
    /// `{"red", "green", "blue", "alpha"}` as UIColor and NSColor map, with `"colorSpace"` when
    /// some color is not sRGB.
    case color(hasColorSpace: Bool)
    case array(PayloadShape)
    /// An object whose keys are data rather than names (UUIDs, bundle identifiers, numbers…):
    /// a `[String: T]` dictionary.
    case map(PayloadShape)
    /// An object with named fields, in the order they were first seen.
    case record([PayloadField])
    /// Null, or absent, in some values.
    case optional(PayloadShape)
    /// Values of different kinds in different rows (a string here, an object there): one
    /// member per kind, each as its JSON category reads it.
    case oneOf([PayloadShape])
}

/// One named field of a record.
public struct PayloadField: Sendable, Hashable {
    /// The key as the payload spells it.
    public var key: String
    /// The field's shape; `.optional` when some values lack it or hold null.
    public var shape: PayloadShape

    public init(_ key: String, _ shape: PayloadShape) {
        self.key = key
        self.shape = shape
    }
}

/// The narrowest integer type that holds every value seen.
public enum IntegerWidth: Int, Sendable, Hashable, Comparable, CaseIterable {
    case int8, int16, int32, int64
    /// Some value is above `Int64.max`.
    case uint64

    public static func < (a: IntegerWidth, b: IntegerWidth) -> Bool { a.rawValue < b.rawValue }

    /// The Swift type of this exact width.
    public var swiftName: String {
        switch self {
        case .int8: "Int8"
        case .int16: "Int16"
        case .int32: "Int32"
        case .int64: "Int64"
        case .uint64: "UInt64"
        }
    }
}

/// The narrowest floating-point type that holds every value seen.
public enum RealWidth: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Every value is the shortest spelling of a `Float` (as UIColor's float32 components are).
    case float
    case double

    public static func < (a: RealWidth, b: RealWidth) -> Bool { a.rawValue < b.rawValue }

    public var swiftName: String { self == .float ? "Float" : "Double" }
}

extension PayloadShape {
    /// The shape without its `.optional` wrapper.
    public var unwrapped: PayloadShape {
        if case .optional(let inner) = self { return inner }
        return self
    }

    /// Whether some values are null or absent.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}
