/// A small deterministic generator (SplitMix64), so that every run builds the same bytes: the
/// benchmark's inputs, the parity harness's mutations.
public struct SplitMix64: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// Seeded from a name (FNV-1a), not from Swift's per-process hash seed.
    public init(seed name: String) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        self.init(seed: h)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (0 when `n` is 1 or less).
    public mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
}
