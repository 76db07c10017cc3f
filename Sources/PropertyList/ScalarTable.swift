import Foundation
internal import SystemInterface

/// The open-addressing table `BinaryPropertyListObjectTable` finds equal scalars with.
///
/// A large write holds a million distinct scalars or more, so nearly every look-up misses the
/// cache. Each place is one word, the object's index beside the high half of the hash of its
/// encoding, so that a look-up takes one miss and a cache line holds eight places; the memory
/// comes zeroed from the system (zero is an empty place), so a large table costs nothing until
/// it is used, and it asks for huge pages (fewer faults and TLB misses; see `HugePages`).
final class ScalarTable {
    private(set) var places: UnsafeMutablePointer<UInt64>
    /// The table has `1 << shift` places; a hash's top `shift` bits are where its look-up starts.
    private(set) var shift: Int
    private(set) var count = 0

    var capacity: Int { 1 << shift }

    /// Tables from this many bytes on (one huge page) are mapped from the system and asked to
    /// be given huge pages.
    static let hugePageBytes = HugePages.size

    /// A table for about `expected` scalars without growing.
    init(expected: Int = 512) {
        var shift = 10
        while (1 << shift) * 3 / 4 < expected, shift < 32 { shift += 1 }
        self.shift = shift
        places = Self.allocate(1 << shift)
    }

    deinit { Self.release(places, capacity) }

    /// `capacity` zeroed places: a large table is mapped from the system, whose fresh pages are
    /// zero and cost nothing until a place on them is written, and asked for huge pages.
    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt64> {
        let bytes = capacity * MemoryLayout<UInt64>.stride
        let raw: UnsafeMutableRawPointer?
        if bytes >= hugePageBytes {
            raw = MemoryMap.mapZeroed(bytes)
            HugePages.advise(raw, byteCount: bytes)
        } else {
            raw = calloc(capacity, MemoryLayout<UInt64>.stride)
        }
        guard let raw else { allocateFailed(bytes) }
        return raw.bindMemory(to: UInt64.self, capacity: capacity)
    }

    /// Gives back what `allocate(capacity)` gave.
    static func release(_ places: UnsafeMutablePointer<UInt64>, _ capacity: Int) {
        let bytes = capacity * MemoryLayout<UInt64>.stride
        if bytes >= hugePageBytes { MemoryMap.unmap(places, bytes) } else { free(places) }
    }

    static func allocateFailed(_ bytes: Int) -> Never {
        preconditionFailure("out of memory allocating \(bytes) bytes for the scalar table")
    }

    /// The place holding `index` (below `UInt32.max`) for a scalar of hash `hash`: the high half
    /// of the hash beside the index plus one (zero is an empty place).
    @inline(__always)
    static func place(index: Int, hash: UInt64) -> UInt64 {
        hash & 0xFFFF_FFFF_0000_0000 | UInt64(truncatingIfNeeded: index + 1)
    }

    /// The object index a place holds, or -1 when it is empty.
    @inline(__always)
    static func index(_ place: UInt64) -> Int {
        Int(truncatingIfNeeded: place & 0xFFFF_FFFF) - 1
    }

    /// Whether a place holds an object whose hash has the high half of `hash`.
    @inline(__always)
    static func matches(_ place: UInt64, _ hash: UInt64) -> Bool {
        (place ^ hash) & 0xFFFF_FFFF_0000_0000 == 0
    }

    /// Where a look-up of `hash` starts: its top bits, which a place keeps, so that the table
    /// can grow without the scalars' encodings.
    @inline(__always)
    func start(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> UInt64(64 - shift))
    }

    /// The place after `at`.
    @inline(__always)
    func next(_ at: Int) -> Int {
        (at + 1) & (capacity - 1)
    }

    /// Looks up a scalar of hash `hash`: the index of one already stored that `isEqual` accepts
    /// (called only for places whose hash half matches), or nil and the empty place where it
    /// belongs, for `insert`.
    @inline(__always)
    func lookUp(_ hash: UInt64, isEqual: (Int) -> Bool) -> (found: Int?, at: Int) {
        var at = start(hash)
        while true {
            let place = places[at]
            if place == 0 { return (nil, at) }
            if Self.matches(place, hash), isEqual(Self.index(place)) { return (Self.index(place), at) }
            at = next(at)
        }
    }

    /// Stores `index` at empty place `at`, for a scalar of hash `hash`; grows past 3/4 full.
    @inline(__always)
    func insert(_ index: Int, hash: UInt64, at: Int) {
        places[at] = Self.place(index: index, hash: hash)
        count += 1
        if count * 4 > capacity * 3, shift < 32 { grow() }
    }

    /// Doubles the table, placing each entry again by the hash bits its place keeps.
    private func grow() {
        let old = places, oldCapacity = capacity
        shift += 1
        let bigger = Self.allocate(1 << shift)
        let mask = (1 << shift) - 1
        for i in 0..<oldCapacity where old[i] != 0 {
            var at = Int(truncatingIfNeeded: old[i] >> UInt64(64 - shift))
            while bigger[at] != 0 { at = (at + 1) & mask }
            bigger[at] = old[i]
        }
        Self.release(old, oldCapacity)
        places = bigger
    }

    @inline(__always)
    static func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
        let m = (h ^ v).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return m.high ^ m.low
    }

    /// A 64-bit hash of a scalar's encoding: multiply-and-fold over 8 bytes at a time.
    static func hash(_ b: UnsafeRawBufferPointer) -> UInt64 {
        var h = mix(0x5CA1_AB1E, UInt64(b.count))
        var i = 0
        while i + 8 <= b.count {
            h = mix(h, b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < b.count {
            tail |= UInt64(b[i]) << shift
            shift += 8
            i += 1
        }
        return mix(h, tail)
    }
}
