/// How `JSONPropertyListWriter` spells what JSON has no type for.
///
/// The names and defaults are JSONEncoder's, so that output written with the defaults decodes
/// with a default `JSONDecoder()` into the Codable type the property list was made from, and
/// matches JSONEncoder's bytes for the same value (compact, keys in the order read).
///
/// Values JSON lacks are written as follows, chosen so that nothing is lost:
/// - a UID is `{"CF$UID": N}`, the spelling XML property lists use;
/// - a set is an array, and the binary null marker is `null`;
/// - a dictionary whose keys are all strings is an object. One whose keys are all integers is
///   an object with the integers as decimal strings, as Codable writes `[Int: Value]`. Any
///   other dictionary is a flat array `[key, value, key, value, …]`, as Codable writes a
///   dictionary whose keys are neither String nor Int;
/// - a string holding lone UTF-16 surrogates keeps them as `\udXXX` escapes.
public struct JSONWriteOptions: Sendable, Hashable {
    /// How dates are written. JSONEncoder's names.
    public enum DateEncodingStrategy: Sendable, Hashable {
        /// Seconds since 2001-01-01T00:00:00Z as a number, which is how `Date` encodes itself.
        case deferredToDate
        /// Seconds since 1970-01-01T00:00:00Z as a number.
        case secondsSince1970
        /// Milliseconds since 1970-01-01T00:00:00Z as a number.
        case millisecondsSince1970
        /// An ISO 8601 string in whole seconds with `Z`, such as `2001-01-01T00:00:00Z`.
        case iso8601
    }

    /// How data is written. JSONEncoder's names.
    public enum DataEncodingStrategy: Sendable, Hashable {
        /// A base64 string, which is how JSONEncoder writes `Data` by default.
        case base64
        /// An array of byte values, which is how `Data` encodes itself.
        case deferredToData
    }

    /// What to do with NaN and the infinities, which JSON cannot hold. JSONEncoder's names.
    public enum NonConformingFloatEncodingStrategy: Sendable, Hashable {
        /// Refuse them, naming the key path.
        case `throw`
        /// Write the given strings instead.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// Layout choices, as JSONEncoder's `OutputFormatting`.
    public struct OutputFormatting: OptionSet, Sendable, Hashable {
        public let rawValue: UInt

        /// Bit values as JSONEncoder's `OutputFormatting` uses them.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Two-space indentation and `"key" : value`, as JSONEncoder lays it out.
        public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
        /// Object keys in the order of their UTF-8 bytes, as JSONEncoder sorts them.
        public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
        /// `/` written as is, rather than as `\/`.
        public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 3)
    }

    /// Default: `.deferredToDate`.
    public var dateEncodingStrategy: DateEncodingStrategy
    /// Default: `.base64`.
    public var dataEncodingStrategy: DataEncodingStrategy
    /// Default: `.throw`.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy
    /// Default: none (compact, keys in the order read).
    public var outputFormatting: OutputFormatting

    /// Options with JSONEncoder's defaults unless given.
    public init(
        dateEncodingStrategy: DateEncodingStrategy = .deferredToDate,
        dataEncodingStrategy: DataEncodingStrategy = .base64,
        nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy = .throw,
        outputFormatting: OutputFormatting = []
    ) {
        self.dateEncodingStrategy = dateEncodingStrategy
        self.dataEncodingStrategy = dataEncodingStrategy
        self.nonConformingFloatEncodingStrategy = nonConformingFloatEncodingStrategy
        self.outputFormatting = outputFormatting
    }
}
