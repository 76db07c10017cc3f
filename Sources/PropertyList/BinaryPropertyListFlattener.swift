import Foundation
import Synchronization

/// The object table of one write.
struct BinaryPropertyListFlattener {
    enum Slot {
        case scalar(PropertyListValue)
        /// A collection: its marker nibble and where its child references start in `refs`.
        /// Dictionaries list their key references, then their value references.
        case collection(marker: UInt8, refsStart: Int, count: Int)
    }

    var slots: [Slot] = []
    var refs: [Int] = []
    /// Equal scalars, stored once (CF never unifies values of different kinds).
    var scalars = ScalarIndex()
    /// The keys arrays flattened most recently, with their objects' indexes: dictionaries of
    /// one shape share one keys array (the readers see to it), whose keys then need no
    /// hashing again.
    var recentKeys: [(keys: [PropertyListValue], refs: [Int])] = []
    var nextRecent = 0
    /// What `touchScalars` loaded, stored only so that its loads are made.
    static let touched = Atomic<Int>(0)

    @discardableResult
    mutating func flatten(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            let index = slots.count
            slots.append(.collection(marker: 0, refsStart: 0, count: 0))
            var children: [Int] = []
            children.reserveCapacity(elements.count)
            touchScalars(elements)
            for e in elements { children.append(flatten(e)) }
            let start = refs.count
            refs.append(contentsOf: children)
            if case .set = value {
                slots[index] = .collection(marker: 0xC, refsStart: start, count: elements.count)
            } else {
                slots[index] = .collection(marker: 0xA, refsStart: start, count: elements.count)
            }
            return index
        case .dictionary(let d):
            let index = slots.count
            slots.append(.collection(marker: 0, refsStart: 0, count: 0))
            var children: [Int] = []
            children.reserveCapacity(d.count * 2)
            children.append(contentsOf: keyRefs(d.keys))
            touchScalars(d.values)
            for v in d.values { children.append(flatten(v)) }
            let start = refs.count
            refs.append(contentsOf: children)
            slots[index] = .collection(marker: 0xD, refsStart: start, count: d.count)
            return index
        default:
            return scalars.index(of: value, in: &slots)
        }
    }

    /// Loads the table places of the scalars among `values`, a few at a time, just before they
    /// are looked up (see `ScalarIndex.touch`).
    @inline(__always)
    mutating func touchScalars(_ values: [PropertyListValue]) {
        var loaded = 0
        for v in values.prefix(16) where !v.isCollection {
            loaded &+= scalars.touch(ScalarIndex.hash(v))
        }
        Self.touched.store(loaded, ordering: .relaxed)
    }

    /// The object indexes of a dictionary's keys: from the recent ones when it has the same
    /// keys array. Keys are scalars (a collection key is flattened like any value), so the
    /// same keys flattened again would give the same indexes.
    mutating func keyRefs(_ keys: [PropertyListValue]) -> [Int] {
        for recent in recentKeys where Self.sameStorage(recent.keys, keys) { return recent.refs }
        var out: [Int] = []
        out.reserveCapacity(keys.count)
        var scalarsOnly = true
        for k in keys {
            if k.isCollection { scalarsOnly = false }
            out.append(flatten(k))
        }
        guard scalarsOnly else { return out }
        if recentKeys.count < 4 {
            recentKeys.append((keys, out))
        } else {
            recentKeys[nextRecent] = (keys, out)
            nextRecent = (nextRecent + 1) % 4
        }
        return out
    }

    static func sameStorage(_ a: [PropertyListValue], _ b: [PropertyListValue]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }

    /// The smallest of CF's widths (1, 2, 4, 8 bytes) that holds `value`.
    static func width(for value: Int) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    func serialize() -> Data {
        var out = BinaryPropertyListOutput(capacity: slots.count * 10 + refs.count * 2 + 64)
        out.bytes.append("bplist00")
        let refSize = Self.width(for: slots.count - 1)
        var offsets: [Int] = []
        offsets.reserveCapacity(slots.count)
        refs.withUnsafeBufferPointer { refs in
            for slot in slots {
                offsets.append(out.bytes.length)
                switch slot {
                case .scalar(let v): out.writeScalar(v)
                case .collection(let marker, let start, let count):
                    out.writeHeader(marker, count: count)
                    let total = marker == 0xD ? count * 2 : count
                    out.bytes.reserve(total * refSize)
                    for i in start..<start + total { out.writeBigEndianUnchecked(UInt64(refs[i]), size: refSize) }
                }
            }
        }
        let tableOffset = out.bytes.length
        let offsetSize = Self.width(for: tableOffset)
        out.bytes.reserve(offsets.count * offsetSize + 32)
        for o in offsets { out.writeBigEndianUnchecked(UInt64(o), size: offsetSize) }
        // Trailer: 5 unused bytes, sort version, offset size, ref size, count, top, table offset.
        out.bytes.append(repeating: 0, count: 6)
        out.bytes.append(UInt8(offsetSize))
        out.bytes.append(UInt8(refSize))
        out.writeBigEndian(UInt64(slots.count), size: 8)
        out.writeBigEndian(0, size: 8)
        out.writeBigEndian(UInt64(tableOffset), size: 8)
        return out.finish()
    }
}

/// Scalars already in the table, found by a hash of their bytes: open addressing over slot
/// indexes, each candidate confirmed by comparing values as CF unifies them (strings by their
/// code points, reals and dates by their bits, data by its bytes).
///
/// A large write holds a million distinct scalars or more, so nearly every look-up misses the
/// cache: each place keeps its hash beside its slot (one miss, not two), a large table asks for
/// huge pages (fewer TLB misses), and `touch` lets a collection load the places of all its
/// children before looking them up one by one, so their misses overlap.
struct ScalarIndex {
    /// A place of the table: `slot` is -1 when it is empty.
    struct Place {
        var hash: UInt64
        var slot: Int
    }

    let table: ScalarTable
    var count = 0

    init() {
        table = ScalarTable(capacity: 1024)
    }

    /// The index of a scalar equal to `value` in `slots`, or of `value` appended there.
    @inline(__always)
    mutating func index(of value: PropertyListValue, in slots: inout [BinaryPropertyListFlattener.Slot]) -> Int {
        index(of: value, hash: Self.hash(value), in: &slots)
    }

    /// `index(of:in:)` with the value's hash already computed.
    mutating func index(of value: PropertyListValue, hash: UInt64, in slots: inout [BinaryPropertyListFlattener.Slot]) -> Int {
        let places = table.places
        let mask = table.capacity - 1
        var at = Int(truncatingIfNeeded: hash) & mask
        while true {
            let place = places[at]
            if place.slot < 0 { break }
            if place.hash == hash, case .scalar(let existing) = slots[place.slot], Self.unifies(existing, value) { return place.slot }
            at = (at + 1) & mask
        }
        let index = slots.count
        slots.append(.scalar(value))
        places[at] = Place(hash: hash, slot: index)
        count += 1
        if count * 2 > table.capacity { table.grow() }
        return index
    }

    /// Loads the place where a look-up of `hash` starts: done for several values before any
    /// is looked up, their cache misses come at once instead of one after another. Nothing
    /// here branches on what was loaded, so the loads are not held up waiting for each other.
    /// Returns something of what it loaded, for the caller to store so the loads are made.
    @inline(__always)
    func touch(_ hash: UInt64) -> Int {
        table.places[Int(truncatingIfNeeded: hash) & (table.capacity - 1)].slot
    }

    /// Whether CF stores `a` and `b` as one object: the same kind and the same value, strings
    /// compared code point by code point.
    static func unifies(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): literallyEqual(x, y)
        case (.integer(let x), .integer(let y)): x == y
        case (.real(let x), .real(let y)): x.bitPattern == y.bitPattern
        case (.date(let x), .date(let y)): x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case (.data(let x), .data(let y)): x == y
        case (.uid(let x), .uid(let y)): x == y
        case (.bool, .bool), (.null, .null), (.invalidUTF16String, .invalidUTF16String): a == b
        default: false
        }
    }

    /// A 64-bit hash of a scalar's kind and bytes: multiply-and-fold over 8 bytes at a time.
    static func hash(_ value: PropertyListValue) -> UInt64 {
        switch value {
        case .string(var s): return s.withUTF8 { bytes(UnsafeRawBufferPointer($0), seed: 1) }
        case .integer(let i): return mix(mix(2, UInt64(bitPattern: i.high)), i.low)
        case .real(let r): return mix(3, r.bitPattern)
        case .date(let d): return mix(4, d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let d): return d.withUnsafeBytes { bytes($0, seed: 5) }
        case .uid(let u): return mix(6, u)
        case .bool(let b): return mix(7, b ? 1 : 0)
        case .null: return mix(8, 0)
        case .invalidUTF16String(let units): return units.withUnsafeBytes { bytes($0, seed: 9) }
        case .array, .set, .dictionary: return 0
        }
    }

    @inline(__always)
    static func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
        let m = (h ^ v).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return m.high ^ m.low
    }

    static func bytes(_ b: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var h = mix(seed, UInt64(b.count))
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

/// The places of a `ScalarIndex`, in memory of their own so that a large table can be given
/// huge pages.
final class ScalarTable {
    private(set) var places: UnsafeMutablePointer<ScalarIndex.Place>
    private(set) var capacity: Int
    private var bytes: Int

    /// Tables from this many bytes on are aligned to 2 MiB and asked to be given huge pages.
    static let hugePageBytes = 2 << 20

    init(capacity: Int) {
        (places, bytes) = Self.allocate(capacity)
        self.capacity = capacity
    }

    deinit { free(places) }

    static func allocate(_ capacity: Int) -> (UnsafeMutablePointer<ScalarIndex.Place>, Int) {
        let (bytes, overflow) = capacity.multipliedReportingOverflow(by: MemoryLayout<ScalarIndex.Place>.stride)
        guard !overflow else { preconditionFailure("a table of \(capacity) scalars is too large") }
        var raw: UnsafeMutableRawPointer?
        if bytes >= hugePageBytes {
            guard posix_memalign(&raw, hugePageBytes, bytes) == 0 else { allocateFailed(bytes) }
            #if os(Linux)
            _ = madvise(raw, bytes, 14 /* MADV_HUGEPAGE */)
            #endif
        } else {
            raw = malloc(bytes)
        }
        guard let raw else { allocateFailed(bytes) }
        let places = raw.bindMemory(to: ScalarIndex.Place.self, capacity: capacity)
        places.initialize(repeating: ScalarIndex.Place(hash: 0, slot: -1), count: capacity)
        return (places, bytes)
    }

    static func allocateFailed(_ bytes: Int) -> Never {
        preconditionFailure("out of memory allocating \(bytes) bytes for the scalar table")
    }

    /// Doubles the table, placing each entry again by its hash.
    func grow() {
        let old = places, oldCapacity = capacity
        let (bigger, size) = Self.allocate(capacity * 2)
        let mask = capacity * 2 - 1
        for i in 0..<oldCapacity where old[i].slot >= 0 {
            var at = Int(truncatingIfNeeded: old[i].hash) & mask
            while bigger[at].slot >= 0 { at = (at + 1) & mask }
            bigger[at] = old[i]
        }
        free(old)
        places = bigger
        capacity *= 2
        bytes = size
    }
}
