import Foundation

/// Writes binary property lists (`bplist00`) laid out as CF writes them.
///
/// Two passes: the first assigns object indexes depth-first, uniquing equal scalars (strings,
/// numbers, dates, data, UIDs) so each is stored once; the second writes the objects with the
/// smallest reference and offset widths among 1, 2, 4 and 8 bytes, the widths CF itself uses
/// and every reader supports.
public struct BinaryPropertyListWriter: Sendable {
    public init() {}

    /// Serializes `value`. Every `PropertyListValue` can be written in binary form.
    public func write(_ value: PropertyListValue) -> Data {
        var flattener = BinaryPropertyListFlattener()
        flattener.flatten(value)
        return flattener.serialize()
    }
}

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
    // One table per kind: hashing a String or an Int64 directly is much cheaper than hashing
    // the enum, and CF never unifies values of different kinds anyway.
    var strings: [LiteralString: Int] = [:]
    var integers: [PropertyListInteger: Int] = [:]
    var reals: [UInt64: Int] = [:]
    var dates: [UInt64: Int] = [:]
    var datas: [Data: Int] = [:]
    var uids: [UInt64: Int] = [:]
    var others: [PropertyListValue: Int] = [:]

    /// The index of an equal scalar already in the table, or a new one for `value`.
    static func uniqued<K: Hashable>(_ key: K, in table: inout [K: Int], slots: inout [Slot], _ value: PropertyListValue) -> Int {
        if let existing = table[key] { return existing }
        let index = slots.count
        slots.append(.scalar(value))
        table[key] = index
        return index
    }

    @discardableResult
    mutating func flatten(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            let index = slots.count
            slots.append(.collection(marker: 0, refsStart: 0, count: 0))
            var children: [Int] = []
            children.reserveCapacity(elements.count)
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
            for k in d.keys { children.append(flatten(k)) }
            for v in d.values { children.append(flatten(v)) }
            let start = refs.count
            refs.append(contentsOf: children)
            slots[index] = .collection(marker: 0xD, refsStart: start, count: d.count)
            return index
        case .string(let v): return Self.uniqued(LiteralString(v), in: &strings, slots: &slots, value)
        case .integer(let v): return Self.uniqued(v, in: &integers, slots: &slots, value)
        case .real(let v): return Self.uniqued(v.bitPattern, in: &reals, slots: &slots, value)
        case .date(let v): return Self.uniqued(v.timeIntervalSinceReferenceDate.bitPattern, in: &dates, slots: &slots, value)
        case .data(let v): return Self.uniqued(v, in: &datas, slots: &slots, value)
        case .uid(let v): return Self.uniqued(v, in: &uids, slots: &slots, value)
        case .bool, .null, .invalidUTF16String: return Self.uniqued(value, in: &others, slots: &slots, value)
        }
    }

    /// The smallest of CF's widths (1, 2, 4, 8 bytes) that holds `value`.
    static func width(for value: Int) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    func serialize() -> Data {
        var out = BinaryPropertyListOutput()
        out.bytes.reserveCapacity(slots.count * 8 + refs.count * 2 + 64)
        out.append(contentsOf: "bplist00".utf8)
        let refSize = Self.width(for: slots.count - 1)
        var offsets: [Int] = []
        offsets.reserveCapacity(slots.count)
        for slot in slots {
            offsets.append(out.bytes.count)
            switch slot {
            case .scalar(let v): out.writeScalar(v)
            case .collection(let marker, let start, let count):
                out.writeHeader(marker, count: count)
                let total = marker == 0xD ? count * 2 : count
                for i in start..<start + total { out.writeBigEndian(UInt64(refs[i]), size: refSize) }
            }
        }
        let tableOffset = out.bytes.count
        let offsetSize = Self.width(for: tableOffset)
        for o in offsets { out.writeBigEndian(UInt64(o), size: offsetSize) }
        // Trailer: 5 unused bytes, sort version, offset size, ref size, count, top, table offset.
        out.append(contentsOf: [0, 0, 0, 0, 0, 0])
        out.bytes.append(UInt8(offsetSize))
        out.bytes.append(UInt8(refSize))
        out.writeBigEndian(UInt64(slots.count), size: 8)
        out.writeBigEndian(0, size: 8)
        out.writeBigEndian(UInt64(tableOffset), size: 8)
        return Data(out.bytes)
    }
}

/// A growing byte buffer with the encodings of each scalar.
struct BinaryPropertyListOutput {
    var bytes: [UInt8] = []

    mutating func append(contentsOf s: some Sequence<UInt8>) { bytes.append(contentsOf: s) }

    @inline(__always)
    mutating func writeBigEndian(_ v: UInt64, size: Int) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
            shift -= 8
        }
    }

    /// A marker with its count in the low nibble, or 0xF and an integer object for 15 and above.
    mutating func writeHeader(_ marker: UInt8, count: Int) {
        if count < 15 {
            bytes.append(marker << 4 | UInt8(count))
        } else {
            bytes.append(marker << 4 | 0x0F)
            writeInteger(PropertyListInteger(count))
        }
    }

    /// Integers as CF writes them: non-negative values in 1, 2 or 4 bytes when they fit,
    /// other Int64 values in 8, and everything else in 16.
    mutating func writeInteger(_ i: PropertyListInteger) {
        if let v = i.int64Value {
            if v >= 0 && v <= 0xFF {
                bytes.append(0x10); writeBigEndian(UInt64(v), size: 1)
            } else if v >= 0 && v <= 0xFFFF {
                bytes.append(0x11); writeBigEndian(UInt64(v), size: 2)
            } else if v >= 0 && v <= 0xFFFF_FFFF {
                bytes.append(0x12); writeBigEndian(UInt64(v), size: 4)
            } else {
                bytes.append(0x13); writeBigEndian(UInt64(bitPattern: v), size: 8)
            }
        } else {
            bytes.append(0x14)
            writeBigEndian(UInt64(bitPattern: i.high), size: 8)
            writeBigEndian(i.low, size: 8)
        }
    }

    mutating func writeScalar(_ value: PropertyListValue) {
        switch value {
        case .null: bytes.append(0x00)
        case .bool(let b): bytes.append(b ? 0x09 : 0x08)
        case .integer(let i): writeInteger(i)
        case .real(let r):
            bytes.append(0x23)
            writeBigEndian(r.bitPattern, size: 8)
        case .date(let d):
            bytes.append(0x33)
            writeBigEndian(d.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let d):
            writeHeader(0x4, count: d.count)
            d.withUnsafeBytes { bytes.append(contentsOf: $0) }
        case .string(var s):
            // ASCII when every byte is, as CF chooses; otherwise UTF-16BE.
            let isASCII = s.withUTF8 { utf8 in utf8.allSatisfy { $0 < 0x80 } }
            if isASCII {
                let count = s.utf8.count
                writeHeader(0x5, count: count)
                s.withUTF8 { bytes.append(contentsOf: $0) }
            } else {
                writeUTF16(Array(s.utf16))
            }
        case .invalidUTF16String(let units):
            writeUTF16(units)
        case .uid(let u):
            let size = BinaryPropertyListFlattener.width(for: Int(clamping: u))
            bytes.append(0x80 | UInt8(size - 1))
            writeBigEndian(u, size: size)
        case .array, .dictionary, .set:
            break // written by the flattener
        }
    }

    mutating func writeUTF16(_ units: [UInt16]) {
        writeHeader(0x6, count: units.count)
        for u in units {
            bytes.append(UInt8(u >> 8))
            bytes.append(UInt8(u & 0xFF))
        }
    }
}

/// A string compared and hashed by its UTF-8 bytes, as CF uniques strings: Swift's own String
/// equality would merge canonically equivalent strings ("é" and "e\u{301}") into one object.
struct LiteralString: Hashable {
    var string: String

    init(_ string: String) { self.string = string }

    static func == (a: LiteralString, b: LiteralString) -> Bool {
        literallyEqual(a.string, b.string)
    }

    func hash(into hasher: inout Hasher) {
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
