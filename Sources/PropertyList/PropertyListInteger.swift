/// An integer as property lists store it: any value of a signed 128-bit integer.
///
/// Binary plists write 1-, 2- and 4-byte integers unsigned, 8-byte ones signed, and
/// 16-byte ones as 128-bit two's complement (CF uses that form for UInt64 values above
/// Int64.max). One representation covers all of them, so equal values compare equal
/// whatever width they were read from.
public struct PropertyListInteger: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The upper 64 bits, two's complement.
    public var high: Int64
    /// The lower 64 bits.
    public var low: UInt64

    public init(high: Int64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public init(_ value: Int64) {
        self.init(high: value < 0 ? -1 : 0, low: UInt64(bitPattern: value))
    }

    public init(_ value: Int) { self.init(Int64(value)) }

    public init(_ value: UInt64) { self.init(high: 0, low: value) }

    public init(_ value: Int128) {
        self.init(high: Int64(truncatingIfNeeded: value >> 64), low: UInt64(truncatingIfNeeded: value))
    }

    public var int128Value: Int128 { Int128(high) << 64 | Int128(low) }

    /// The value as Int64, or nil when it does not fit.
    public var int64Value: Int64? {
        let signed = Int64(bitPattern: low)
        return (high == 0 && signed >= 0) || (high == -1 && signed < 0) ? signed : nil
    }

    /// The value as UInt64, or nil when it is negative or too large.
    public var uint64Value: UInt64? { high == 0 ? low : nil }

    /// Whether the value needs the 16-byte binary form.
    public var needsSixteenBytes: Bool { int64Value == nil }

    public var description: String { String(int128Value) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.int128Value < rhs.int128Value }
}
