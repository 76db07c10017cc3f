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
        // A key twice (CF keeps the first) is left to the reader. `$objects` must be an array.
        guard CoreFoundationKeyEquality.repeats(in: keys, object: { _ in nil }).isEmpty,
              !keys.contains(where: { if case .uid = $0 { true } else { false } }) else { throw Self.notFlat }
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
        // The entries of every dictionary element: each takes two references of the file, so
        // the references the file holds bound them when no dictionary is shared (a shared one
        // is appended at each use, and the array grows). Reserved at that bound, which costs
        // address space only, rather than counted in a pass of their own over every element.
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
                table.kinds.append(try scanScalar(element, at: start, scan: &scan))
            }
            guard table.uids.count <= Int(Int32.max), table.others.count <= Int(Int32.max) else { throw Self.notFlat }
            table.entryStart.append(Int32(truncatingIfNeeded: table.entries.count))
        }
        leave(index)
        return table
    }

    /// Checks scalar object `index` (at byte `start`) as `read` reads it, and counts it, without
    /// building its value; gives its kind. A scalar met again is counted again, as the reader
    /// counts every use of a shared object (`scalarWeightOnUse`).
    @inline(__always)
    mutating func scanScalar(_ index: Int, at start: Int, scan: inout FlatScan) throws(PropertyListError) -> FlatElementKind {
        var kind = FlatElementKind.other
        let weight = try scalarWeightOnUse(index, at: start, kind: &kind, scan: &scan)
        try grow(by: weight, index: index)
        return kind
    }

    /// `scalarWeight`, for one use of scalar `index`. A string or data of more than
    /// `largeScalarBytes` is marked as read, and its weight kept when it is met a second time,
    /// so that a large scalar referenced many times is measured at most twice: the work stays
    /// proportional to the file, while every use still counts against the expansion limit.
    @inline(__always)
    mutating func scalarWeightOnUse(_ index: Int, at start: Int, kind: inout FlatElementKind,
                                    scan: inout FlatScan) throws(PropertyListError) -> Weight {
        if wasVisited(index), let known = scan.largeScalars[index] {
            kind = known.kind
            return known.weight
        }
        let weight = try scalarWeight(index, at: start, kind: &kind)
        if weight.bytes > Self.largeScalarBytes {
            if wasVisited(index) {
                scan.largeScalars[index] = (weight, kind)
            } else {
                markVisited(index)
            }
        }
        return weight
    }

    /// Whether object `index` was marked as read (`firstVisit`, `markVisited`).
    @inline(__always)
    func wasVisited(_ index: Int) -> Bool {
        seen[index >> 6] & (UInt64(1) << UInt64(index & 63)) != 0
    }

    /// Marks object `index` as read without refusing one read before: the flat scan's shared
    /// objects, which it reads again or reuses, and counts at every use.
    @inline(__always)
    mutating func markVisited(_ index: Int) {
        seen[index >> 6] |= UInt64(1) << UInt64(index & 63)
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
            // Dates past the years 1 to 9999 (NaN, the infinities) are left to the reader.
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
            // Bytes above 0x7F (read as Latin 1) are left to the reader.
            if high >= 0x80 { throw Self.notFlat }
            kind = .string
            return Weight(values: 1, bytes: count)
        case 0x6:
            let (count, body) = try count(low, at: start, index: index)
            // An empty UTF-16 string, which CF refuses, is left to the reader.
            guard count > 0, count <= (end - body) / 2 else { throw Self.notFlat }
            // A lone surrogate is refused or kept as raw units.
            guard let utf8 = bytes.utf8LengthOfBigEndianUTF16(at: body, units: count) else {
                guard options.preservesInvalidUTF16 else { throw Self.notFlat }
                kind = .other
                return Weight(values: 1, bytes: count * 2)
            }
            kind = .string
            return Weight(values: 1, bytes: utf8)
        case 0x8:
            // UIDs wider than eight bytes, or past 32 bits (which CF refuses), are left to the reader.
            guard low + 1 <= 8, start + 2 + low <= end, be(start + 1, low + 1) <= UInt64(UInt32.max) else { throw Self.notFlat }
            kind = .other
            return Weight(values: 1, bytes: 0)
        default:
            throw Self.notFlat
        }
    }

    /// What the flat scan keeps between dictionaries.
    ///
    /// Writers may share any object between collections (CPython's plistlib writes one `NS.keys`
    /// array for all dictionaries with the same keys, and one object for equal scalars). The
    /// scan reads a shared object once where it can and counts it at every use, as the reader's
    /// memoized reads count it: a UID array is reused from `FlatObjectTable.uids`, another
    /// collection value from `others`, a large scalar's weight is kept, and a dictionary of
    /// `$objects` met twice is scanned again (its entries again, each counted).
    struct FlatScan {
        /// Per object index: for a key, its slot in `FlatObjectTable.keys` (0 or more); for a UID
        /// array already scanned, -2 minus its start in `FlatObjectTable.uids`; otherwise -1.
        /// (A key is a string, so no object has both.)
        var keySlots: [Int32]
        /// Per key slot: what reading the key adds to the expanded size.
        var keyWeights: [Weight] = []
        /// Per key slot: the last dictionary that used it, to find a key used twice in one.
        var keyStamps: [Int32] = []
        /// The dictionary being scanned, counted from 1.
        var stamp: Int32 = 0
        /// The slot of each key string read, for another key object with the same string.
        var slotByString: [String: Int32] = [:]
        /// Collection values read into `FlatObjectTable.others`, by object index: where, and
        /// what reading them added to the expanded size, counted again at each later use.
        var otherValues: [Int: (slot: Int, weight: Weight)] = [:]
        /// Large scalars met twice, by object index (`scalarWeightOnUse`).
        var largeScalars: [Int: (weight: Weight, kind: FlatElementKind)] = [:]

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
        // A dictionary that two elements of `$objects` reference is scanned at each: its entries
        // are appended again, and counted again, as the reader counts a shared dictionary. The
        // work is what the expansion limit allows. (A collection value that also references it
        // is left to the reader: `firstVisit` then stops the scan.)
        markVisited(index)
        // The dictionary, its keys and its UID values.
        var weight = Weight(values: 1, bytes: 0)
        // Keys: each distinct key object is read once; every use adds its weight, as the
        // reader's memoized reads do. Key objects holding the same bytes share a slot (Linux's
        // NSKeyedArchiver writes each dictionary's keys as objects of their own). A key used
        // twice in one dictionary, two key objects of canonically equal strings of other bytes
        // or other weights, or a key that is no string, are left to the reader, which keeps the
        // entry CF keeps.
        guard scan.stamp < Int32.max else { throw Self.notFlat }
        scan.stamp += 1
        var at = body
        for _ in 0..<count {
            let keyIndex = try checkedRef(at)
            at += refSize
            let slot = scan.keySlots[keyIndex]
            if slot < 0 {
                let before = expanded
                let key = try object(keyIndex, depth: depth + 1)
                guard case .string(let name) = key, table.keys.count < Int(Int32.max) else { throw Self.notFlat }
                let keyWeight = Weight(values: expanded.values - before.values, bytes: expanded.bytes - before.bytes)
                if let known = scan.slotByString[name] {
                    // Its weight was counted by the read; later uses add the slot's, the same.
                    guard case .string(let first) = table.keys[Int(known)], literallyEqual(first, name),
                          scan.keyWeights[Int(known)].values == keyWeight.values, scan.keyWeights[Int(known)].bytes == keyWeight.bytes,
                          scan.keyStamps[Int(known)] != scan.stamp else { throw Self.notFlat }
                    scan.keyStamps[Int(known)] = scan.stamp
                    scan.keySlots[keyIndex] = known
                    continue
                }
                let newSlot = Int32(table.keys.count)
                scan.slotByString[name] = newSlot
                scan.keySlots[keyIndex] = newSlot
                table.keys.append(key)
                scan.keyWeights.append(keyWeight)
                scan.keyStamps.append(scan.stamp)
            } else {
                guard scan.keyStamps[Int(slot)] != scan.stamp else { throw Self.notFlat }
                scan.keyStamps[Int(slot)] = scan.stamp
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
                guard entry.payload <= UInt64(UInt32.max) else { throw Self.notFlat }
            case 0xA:
                if let range = try scanArray(valueIndex, at: valueStart, depth: depth + 1, into: &table, scan: &scan) {
                    entry.kind = .uids
                    entry.payload = UInt64(range.lowerBound) << 32 | UInt64(range.count)
                } else {
                    entry.kind = .value
                    entry.payload = UInt64(try otherValue(valueIndex, depth: depth + 1, into: &table, scan: &scan))
                }
            case 0xC, 0xD:
                entry.kind = .value
                entry.payload = UInt64(try otherValue(valueIndex, depth: depth + 1, into: &table, scan: &scan))
            default:
                if keepingValues {
                    entry.kind = .value
                    entry.payload = UInt64(table.others.count)
                    table.others.append(try object(valueIndex, depth: depth + 1))
                    break
                }
                // A scalar: checked and counted here, read from the file when asked for.
                var kind = FlatElementKind.other
                let w = try scalarWeightOnUse(valueIndex, at: valueStart, kind: &kind, scan: &scan)
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

    /// A collection value that is not a UID array, read as the reader reads it into
    /// `table.others`, or reused from there when another entry referenced it before (and
    /// counted again, as the reader's memoized reads count a shared object): its slot there.
    mutating func otherValue(_ index: Int, depth: Int, into table: inout FlatObjectTable,
                             scan: inout FlatScan) throws(PropertyListError) -> Int {
        if wasVisited(index), let known = scan.otherValues[index] {
            try grow(by: known.weight, index: index)
            return known.slot
        }
        let before = expanded
        let value = try object(index, depth: depth)
        let slot = table.others.count
        table.others.append(value)
        scan.otherValues[index] = (slot, Weight(values: expanded.values - before.values, bytes: expanded.bytes - before.bytes))
        return slot
    }

    /// An array value (at byte `start`) holding only UIDs, appended to `table.uids`: where they
    /// are. An empty array is an empty range (an empty NSArray's or NSDictionary's lists). Nil
    /// for any other array, which the caller reads as the reader reads it. An array scanned
    /// before (shared between dictionaries) is reused where it is, and counted again.
    mutating func scanArray(_ index: Int, at start: Int, depth: Int, into table: inout FlatObjectTable,
                            scan: inout FlatScan) throws(PropertyListError) -> Range<Int>? {
        let (count, body) = try count(Int(bytes[start] & 0x0F), at: start, index: index)
        let known = scan.keySlots[index]
        if known <= -2 {
            guard depth < options.maximumDepth else { throw Self.notFlat }
            try grow(by: Weight(values: 1 + count, bytes: 0), index: index)
            let first = Int(-2 - known)
            return first..<first + count
        }
        let refSize = trailer.objectRefSize
        let end = trailer.offsetTableOffset
        guard count <= (end - body) / refSize, table.uids.count <= Int(Int32.max) - count else { return nil }
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
        // Its start, for another dictionary that references it (`FlatScan.keySlots`).
        if first <= Int(Int32.max) - 2 { scan.keySlots[index] = Int32(-2 - first) }
        return first..<first + count
    }
}
