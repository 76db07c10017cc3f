import Foundation
import Synchronization

/// Remembers what was made of small values already seen, by their exact bytes, so that a column
/// where the same value is stored many times (a palette of colors, default settings, the same
/// few archived objects in a million rows) is decoded, converted and verified once per distinct
/// value instead of once per row.
///
/// Every classification and conversion is a function of the bytes alone (and of options fixed
/// for the memo's owner), so a remembered result is exactly the one recomputing would give.
/// Keys are the whole bytes: the hash covers every byte (Foundation's `Data` hash reads only a
/// prefix, which archives of one shape share), and a hit compares every byte.
///
/// Memory is bounded: values larger than `maximumValueSize` are never kept, and once the kept
/// bytes reach `maximumTotalSize` the memo starts over. A column whose values do not repeat
/// costs little: when the memo fills having found fewer than one value in 16 of those it holds,
/// it empties itself and stands aside for four times as many values (at least 65,536), then
/// tries again; each time in a row it fills for nothing, it stands aside twice as long as the
/// time before (up to 64 times), so that a column of a million distinct values is remembered
/// for a few percent of its rows only. A palette is judged only once the memo is full, so its
/// values may come in any order, even each once before any repeats.
public final class RepeatedValueMemo<Result: Sendable>: Sendable {
    /// The largest value remembered, in bytes (default 4 KiB: typical archived colors, URLs and
    /// small settings dictionaries are a few hundred bytes).
    public let maximumValueSize: Int
    /// The most bytes kept at once (default 16 MiB), each value counted as its own bytes plus
    /// `entryOverhead` for its result and its place in the table.
    public let maximumTotalSize: Int

    public static var defaultMaximumValueSize: Int { 4 << 10 }
    public static var defaultMaximumTotalSize: Int { 16 << 20 }
    /// What a remembered value costs beyond its bytes, as counted against `maximumTotalSize`: a
    /// scan's result holds the archive's class index and the row's bytes, a conversion's the new
    /// bytes (about 1 KiB for an archived color; measured as peak memory on a column without
    /// repeats).
    public let entryOverhead: Int

    public static var defaultEntryOverhead: Int { 1 << 10 }

    private let state = Mutex(State())

    private struct State: ~Copyable {
        var results: [Key: Result] = [:]
        var keptBytes = 0
        /// Lookups that found their value since the memo last started over.
        var hits = 0
        /// Values still to pass without a lookup, after the memo filled with too few hits.
        var standingAside = 0
        /// How many times in a row the memo filled with too few hits.
        var fruitlessFills = 0
    }

    static var minimumStandAside: Int { 65_536 }

    /// The bytes, whether they came as text, and a hash of all of them.
    struct Key: Hashable, @unchecked Sendable {
        let bytes: Data
        let isText: Bool
        let digest: Int

        init(_ bytes: Data, isText: Bool) {
            self.bytes = bytes
            self.isText = isText
            var hasher = Hasher()
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(isText)
            digest = hasher.finalize()
        }

        init(_ bytes: Data, isText: Bool, digest: Int) {
            self.bytes = bytes
            self.isText = isText
            self.digest = digest
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.isText == b.isText && a.bytes == b.bytes
        }
    }

    public init(maximumValueSize: Int = defaultMaximumValueSize, maximumTotalSize: Int = defaultMaximumTotalSize,
                entryOverhead: Int = defaultEntryOverhead) {
        self.entryOverhead = entryOverhead
        self.maximumValueSize = maximumValueSize
        self.maximumTotalSize = maximumTotalSize
    }

    /// The result for `bytes`: remembered, or made by `make` (outside the lock) and remembered.
    public func result(for bytes: Data, isText: Bool = false, _ make: () -> Result) -> Result {
        guard bytes.count <= maximumValueSize else { return make() }
        let passes = state.withLock { state in
            guard state.standingAside > 0 else { return false }
            state.standingAside -= 1
            return true
        }
        if passes { return make() }
        let key = Key(bytes, isText: isText)
        let known = state.withLock { state -> Result? in
            let found = state.results[key]
            if found != nil { state.hits += 1 }
            return found
        }
        if let known { return known }
        let made = make()
        // A copy of its own: the row's bytes may be a slice of a larger buffer the memo must not keep.
        let kept = Key(bytes.withUnsafeBytes { Data($0) }, isText: isText, digest: key.digest)
        state.withLock { state in
            guard state.standingAside == 0 else { return }
            let cost = bytes.count + entryOverhead
            if state.keptBytes + cost > maximumTotalSize {
                let held = state.results.count
                let repeats = state.hits * 16 >= held
                state.results.removeAll(keepingCapacity: repeats)
                state.keptBytes = 0
                state.hits = 0
                guard repeats else {
                    state.standingAside = max(Self.minimumStandAside, 4 * held) << min(state.fruitlessFills, 6)
                    state.fruitlessFills += 1
                    return
                }
                state.fruitlessFills = 0
            }
            if state.results.updateValue(made, forKey: kept) == nil { state.keptBytes += cost }
        }
        return made
    }

    /// How many results are remembered now.
    public var count: Int { state.withLock { $0.results.count } }
}
