import Foundation

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
