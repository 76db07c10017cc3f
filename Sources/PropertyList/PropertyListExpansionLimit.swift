/// How much bigger than its input a binary property list's tree may be once its shared
/// references are expanded.
///
/// A binary file may refer to one object from many places, so 131 bytes of arrays that each
/// hold the next twice stand for millions of values. The reader never copies them, but anything
/// that walks the tree (a printer, a converter to XML or JSON, a payload mapper) pays for every
/// copy. Without sharing, every value costs at least one byte of the file, so real files stay far
/// below these ratios; only files built to explode pass them. `maximumObjectCount` and
/// `maximumDecodedSize` still cap the expanded tree absolutely.
public struct PropertyListExpansionLimit: Sendable, Hashable {
    /// Values allowed whatever the input's size.
    public var baseValues: Int
    /// Values allowed per byte of input, on top of `baseValues`.
    public var valuesPerInputByte: Int
    /// Bytes of string and data content allowed whatever the input's size.
    public var baseContentBytes: Int
    /// Bytes of content allowed per byte of input, on top of `baseContentBytes`.
    public var contentBytesPerInputByte: Int

    public init(baseValues: Int = 1_000_000, valuesPerInputByte: Int = 64,
                baseContentBytes: Int = 64 << 20, contentBytesPerInputByte: Int = 1024) {
        self.baseValues = baseValues
        self.valuesPerInputByte = valuesPerInputByte
        self.baseContentBytes = baseContentBytes
        self.contentBytesPerInputByte = contentBytesPerInputByte
    }

    /// The default: a 131-byte file may stand for about a million values and 64 MiB of content
    /// (printed, about 25 MB of text), a 34 MB file for 2 billion values (so only the absolute
    /// limits apply to it).
    public static let `default` = PropertyListExpansionLimit()

    /// Only the absolute limits apply.
    public static let unlimited = PropertyListExpansionLimit(baseValues: .max, valuesPerInputByte: 0,
                                                           baseContentBytes: .max, contentBytesPerInputByte: 0)

    /// The values allowed for an input of `inputSize` bytes, saturating instead of overflowing.
    public func values(forInputSize inputSize: Int) -> Int {
        Self.allowance(baseValues, valuesPerInputByte, inputSize)
    }

    /// The content bytes allowed for an input of `inputSize` bytes, saturating.
    public func contentBytes(forInputSize inputSize: Int) -> Int {
        Self.allowance(baseContentBytes, contentBytesPerInputByte, inputSize)
    }

    static func allowance(_ base: Int, _ perByte: Int, _ size: Int) -> Int {
        let (scaled, o1) = max(perByte, 0).multipliedReportingOverflow(by: max(size, 0))
        guard !o1 else { return .max }
        let (sum, o2) = max(base, 0).addingReportingOverflow(scaled)
        return o2 ? .max : sum
    }
}
