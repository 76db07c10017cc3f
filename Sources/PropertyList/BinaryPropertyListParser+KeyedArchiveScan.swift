import Foundation

extension BinaryPropertyListParser {
    /// Thrown to give up on the flat scan for a layout it does not handle.
    static let notFlat = PropertyListError(.malformed, "not a flat keyed archive")

    /// The top-level dictionary, as `readDictionary` reads it, with the value of its last
    /// `$objects` key scanned flat.
    mutating func scanKeyedArchive(_ data: Data, keepingValues: Bool) throws(PropertyListError) -> FlatKeyedArchive {
        let index = trailer.topObject
        let start = offset(index)
        let marker = bytes[start]
        guard marker >> 4 == 0xD else { throw Self.notFlat }
        let (count, body) = try count(Int(marker & 0x0F), at: start, index: index)
        let (pairs, overflow) = count.multipliedReportingOverflow(by: 2)
        guard !overflow else { throw Self.notFlat }
        let refs = try refs(pairs, at: body, index: index)
        guard 0 < options.maximumDepth else { throw Self.notFlat }
        try enter(index)
        try firstVisit(index)
        try grow(by: Weight(values: 1, bytes: 0), index: index)
        let refSize = trailer.objectRefSize
        var keys: [PropertyListValue] = []
        keys.reserveCapacity(count)
        for i in 0..<count {
            let key = try object(ref(refs + i * refSize), depth: 1)
            guard !key.isCollection else { throw Self.notFlat }
            keys.append(key)
        }
        // `$objects` is looked up last-one-wins; that entry must be an array to be scanned.
        guard let entry = keys.lastIndex(where: { if case .string(let s) = $0 { literallyEqual(s, "$objects") } else { false } }),
              bytes[offset(ref(refs + (count + entry) * refSize))] >> 4 == 0xA
        else { throw Self.notFlat }
        var values: [PropertyListValue] = []
        values.reserveCapacity(count)
        var table: FlatObjectTable?
        for i in 0..<count {
            let valueIndex = ref(refs + (count + i) * refSize)
            if i == entry {
                table = try scanObjects(valueIndex, depth: 1, data: data, keepingValues: keepingValues)
                values.append(.array([]))
            } else {
                values.append(try object(valueIndex, depth: 1))
            }
        }
        leave(index)
        guard let table else { throw Self.notFlat }
        return FlatKeyedArchive(topKeys: keys, topValues: values, objectsEntry: entry, objects: table)
    }

    /// `$objects`, as `readArray` reads it, each dictionary element kept flat and every scalar
    /// checked as `readScalar` reads it, but left in the file.
    mutating func scanObjects(_ index: Int, depth: Int, data: Data, keepingValues: Bool) throws(PropertyListError) -> FlatObjectTable {
        let start = offset(index)
        let (count, body) = try count(Int(bytes[start] & 0x0F), at: start, index: index)
        let refs = try refs(count, at: body, index: index)
        guard depth < options.maximumDepth else { throw Self.notFlat }
        try enter(index)
        try firstVisit(index)
        try grow(by: Weight(values: 1, bytes: 0), index: index)
        let refSize = trailer.objectRefSize
        // The entries of every dictionary element: each takes two references of the file, and
        // each dictionary is scanned once (a second visit stops the scan), so the references
        // the file holds bound them. Reserved at that bound, which costs address space only,
        // rather than counted in a pass of their own over every element.
        let entryBound = min((trailer.offsetTableOffset - BinaryPropertyListTrailer.headerSize) / (2 * refSize), Int(Int32.max))
        var table = FlatObjectTable(kinds: [], values: [], entryStart: [], entries: [], keys: [], uids: [], others: [],
                                    scalars: FlatScalarReader(data: data, options: options, trailer: trailer, elementRefs: refs))
        table.kinds.reserveCapacity(count)
        if keepingValues { table.values.reserveCapacity(count) }
        table.entryStart.reserveCapacity(count + 1)
        table.entryStart.append(0)
        table.entries.reserveCapacity(entryBound)
        // Archives hold a few UIDs per object; memory reserved but never written costs no more
        // than address space. Bounded by the references the file holds.
        table.uids.reserveCapacity(min(count * 3, trailer.offsetTableOffset / refSize))
        var scan = FlatScan(objectCount: trailer.objectCount)
        for i in 0..<count {
            let element = ref(refs + i * refSize)
            let start = offset(element)
            let marker = bytes[start]
            if marker >> 4 == 0xD {
                try scanDictionary(element, at: start, depth: depth + 1, into: &table, scan: &scan, keepingValues: keepingValues)
                table.kinds.append(.dictionary)
                if keepingValues { table.values.append(.null) }
            } else if keepingValues {
                let value = try object(element, depth: depth + 1)
                table.kinds.append(FlatElementKind(value))
                table.values.append(value)
            } else {
                // Collections other than dictionaries are no archived objects; the ordinary
                // reader takes a file that holds one.
                table.kinds.append(try scanScalar(element, at: start))
            }
            guard table.uids.count <= Int(Int32.max), table.others.count <= Int(Int32.max) else { throw Self.notFlat }
            table.entryStart.append(Int32(truncatingIfNeeded: table.entries.count))
        }
        leave(index)
        return table
    }

    /// Checks scalar object `index` (at byte `start`) as `read` reads it, and counts it, without
    /// building its value; gives its kind.
    @inline(__always)
    mutating func scanScalar(_ index: Int, at start: Int) throws(PropertyListError) -> FlatElementKind {
        try checkScalar(index, at: start)
    }

    /// What `readScalar` accepts, and the weight of what it would read; anything it refuses
    /// (or that is a collection) throws. `kind` is set to what the value is.
    mutating func scalarWeight(_ index: Int, at start: Int, kind: inout FlatElementKind) throws(PropertyListError) -> Weight {
        let end = trailer.offsetTableOffset
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            guard marker == 0x00 || marker == 0x08 || marker == 0x09 else { throw Self.notFlat }
            kind = marker == 0x00 ? .other : .number
            return Weight(values: 1, bytes: 0)
        case 0x1:
            guard low <= 4, start + 1 + (1 << low) <= end else { throw Self.notFlat }
            kind = .number
            return Weight(values: 1, bytes: 0)
        case 0x2:
            guard low == 2 || low == 3, start + 1 + (1 << low) <= end else { throw Self.notFlat }
            kind = .number
            return Weight(values: 1, bytes: 0)
        case 0x3:
            guard marker == 0x33, start + 9 <= end, PropertyListDateRange.contains(Double(bitPattern: be(start + 1, 8))) else {
                throw Self.notFlat
            }
            kind = .date
            return Weight(values: 1, bytes: 0)
        case 0x4:
            let (count, body) = try count(low, at: start, index: index)
            guard count <= end - body else { throw Self.notFlat }
            kind = .data
            return Weight(values: 1, bytes: count)
        case 0x5:
            let (count, body) = try count(low, at: start, index: index)
            guard count <= end - body else { throw Self.notFlat }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[body..<body + count])
            var high: UInt8 = 0
            for b in slice { high |= b }
            // High bytes are read when they are valid UTF-8, which then has as many bytes.
            if high >= 0x80, String(validating: slice, as: UTF8.self) == nil { throw Self.notFlat }
            kind = .string
            return Weight(values: 1, bytes: count)
        case 0x6:
            let (count, body) = try count(low, at: start, index: index)
            guard count <= (end - body) / 2 else { throw Self.notFlat }
            // The UTF-8 length of the string, as `String(validating:as: UTF16.self)` reads it;
            // a lone surrogate is refused or kept as raw units.
            var utf8 = 0
            var at = body
            let stop = body + 2 * count
            while at < stop {
                let unit = UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
                at += 2
                if unit < 0x80 {
                    utf8 += 1
                } else if unit < 0x800 {
                    utf8 += 2
                } else if unit & 0xF800 != 0xD800 {
                    utf8 += 3
                } else if unit < 0xDC00, at < stop, bytes[at] & 0xFC == 0xDC {
                    // A high surrogate and the low one after it: one scalar of four bytes.
                    at += 2
                    utf8 += 4
                } else {
                    guard options.preservesInvalidUTF16 else { throw Self.notFlat }
                    kind = .other
                    return Weight(values: 1, bytes: count * 2)
                }
            }
            kind = .string
            return Weight(values: 1, bytes: utf8)
        case 0x8:
            guard low + 1 <= 8, start + 2 + low <= end else { throw Self.notFlat }
            kind = .other
            return Weight(values: 1, bytes: 0)
        default:
            throw Self.notFlat
        }
    }

    /// What the flat scan keeps between dictionaries.
    struct FlatScan {
        /// Per object index: its slot in `FlatObjectTable.keys`, or -1 when not yet read as a key.
        var keySlots: [Int32]
        /// Per key slot: what reading the key adds to the expanded size.
        var keyWeights: [Weight] = []

        init(objectCount: Int) {
            keySlots = Array(repeating: -1, count: objectCount)
        }
    }

    /// A reference of the collection being scanned, checked as `refs` checks them.
    @inline(__always)
    func checkedRef(_ at: Int) throws(PropertyListError) -> Int {
        let r = be(at, trailer.objectRefSize)
        guard r < UInt64(trailer.objectCount) else { throw Self.notFlat }
        return Int(truncatingIfNeeded: r)
    }

    /// One dictionary of `$objects` (at byte `start`), as `readDictionary` reads it, appended to
    /// `table.entries`. References are checked as they are read rather than in a pass of their
    /// own, and the expanded size grows once per dictionary: the same checks, in one pass.
    mutating func scanDictionary(_ index: Int, at start: Int, depth: Int, into table: inout FlatObjectTable,
                                 scan: inout FlatScan, keepingValues: Bool) throws(PropertyListError) {
        let (count, body) = try count(Int(bytes[start] & 0x0F), at: start, index: index)
        let refSize = trailer.objectRefSize
        let end = trailer.offsetTableOffset
        // Keys and values: two references per entry, all before the offset table.
        let (pairs, overflow) = count.multipliedReportingOverflow(by: 2)
        guard !overflow, pairs <= (end - body) / refSize else { throw Self.notFlat }
        guard depth < options.maximumDepth else { throw Self.notFlat }
        try enter(index)
        try firstVisit(index)
        // The dictionary, its keys and its UID values.
        var weight = Weight(values: 1, bytes: 0)
        // Keys: each distinct key object is read once; every use adds its weight, as the
        // reader's memoized reads do.
        var at = body
        for _ in 0..<count {
            let keyIndex = try checkedRef(at)
            at += refSize
            let slot = scan.keySlots[keyIndex]
            if slot < 0 {
                let before = expanded
                let key = try object(keyIndex, depth: depth + 1)
                guard !key.isCollection, table.keys.count < Int(Int32.max) else { throw Self.notFlat }
                scan.keySlots[keyIndex] = Int32(table.keys.count)
                table.keys.append(key)
                scan.keyWeights.append(Weight(values: expanded.values - before.values, bytes: expanded.bytes - before.bytes))
            } else {
                let w = scan.keyWeights[Int(slot)]
                let (values, o1) = weight.values.addingReportingOverflow(w.values)
                let (bytes, o2) = weight.bytes.addingReportingOverflow(w.bytes)
                guard !o1, !o2 else { throw Self.notFlat }
                weight = Weight(values: values, bytes: bytes)
            }
        }
        guard table.entries.count <= Int(Int32.max) - count else { throw Self.notFlat }
        var keyAt = body
        for _ in 0..<count {
            let valueIndex = try checkedRef(at)
            at += refSize
            let key = scan.keySlots[Int(truncatingIfNeeded: be(keyAt, refSize))]
            keyAt += refSize
            let valueStart = offset(valueIndex)
            let marker = bytes[valueStart]
            var entry = FlatEntry(key: key, kind: .uid, payload: 0)
            switch marker >> 4 {
            case 0x8:
                // A UID, with `readScalar`'s checks.
                let size = Int(marker & 0x0F) + 1
                guard size <= 8, valueStart + 1 + size <= end else { throw Self.notFlat }
                weight.values += 1
                entry.payload = be(valueStart + 1, size)
            case 0xA:
                if let range = try scanArray(valueIndex, at: valueStart, depth: depth + 1, into: &table) {
                    entry.kind = .uids
                    entry.payload = UInt64(range.lowerBound) << 32 | UInt64(range.count)
                } else {
                    entry.kind = .value
                    entry.payload = UInt64(table.others.count)
                    table.others.append(try object(valueIndex, depth: depth + 1))
                }
            case 0xC, 0xD:
                entry.kind = .value
                entry.payload = UInt64(table.others.count)
                table.others.append(try object(valueIndex, depth: depth + 1))
            default:
                if keepingValues {
                    entry.kind = .value
                    entry.payload = UInt64(table.others.count)
                    table.others.append(try object(valueIndex, depth: depth + 1))
                    break
                }
                // A scalar: checked and counted here, read from the file when asked for.
                var kind = FlatElementKind.other
                let w = try scalarWeight(valueIndex, at: valueStart, kind: &kind)
                if w.bytes > Self.largeScalarBytes { try firstVisit(valueIndex) }
                let (v, o1) = weight.values.addingReportingOverflow(w.values)
                let (b, o2) = weight.bytes.addingReportingOverflow(w.bytes)
                guard !o1, !o2 else { throw Self.notFlat }
                weight = Weight(values: v, bytes: b)
                entry.kind = .scalar
                entry.payload = UInt64(valueIndex)
            }
            table.entries.append(entry)
        }
        // Sums checked for overflow as they grew; `grow` checks them against the limits.
        try grow(by: weight, index: index)
        leave(index)
    }

    /// An array value (at byte `start`) holding only UIDs, appended to `table.uids`: where they
    /// are. Nil for any other array, which the caller reads as the reader reads it.
    mutating func scanArray(_ index: Int, at start: Int, depth: Int, into table: inout FlatObjectTable) throws(PropertyListError) -> Range<Int>? {
        let (count, body) = try count(Int(bytes[start] & 0x0F), at: start, index: index)
        let refSize = trailer.objectRefSize
        let end = trailer.offsetTableOffset
        guard count > 0, count <= (end - body) / refSize, table.uids.count <= Int(Int32.max) - count else { return nil }
        // Only UIDs, each within the object area (`readScalar`'s checks)? Read them as we check.
        let first = table.uids.count
        var at = body
        for _ in 0..<count {
            let r = be(at, refSize)
            at += refSize
            guard r < UInt64(trailer.objectCount) else { throw Self.notFlat }
            let o = offset(Int(truncatingIfNeeded: r))
            let marker = bytes[o]
            let size = Int(marker & 0x0F) + 1
            guard marker >> 4 == 0x8, size <= 8, o + 1 + size <= end else {
                table.uids.removeSubrange(first...)
                return nil
            }
            let uid = be(o + 1, size)
            guard uid <= UInt64(UInt32.max) else { throw Self.notFlat }
            table.uids.append(UInt32(truncatingIfNeeded: uid))
        }
        guard depth < options.maximumDepth else { throw Self.notFlat }
        try enter(index)
        try firstVisit(index)
        // The array and its UIDs: one value each.
        try grow(by: Weight(values: 1 + count, bytes: 0), index: index)
        leave(index)
        return first..<first + count
    }
}
