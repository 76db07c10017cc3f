extension BinaryPropertyListParser {
    /// Thrown to give up on the flat scan for a layout it does not handle.
    static let notFlat = PropertyListError(.malformed, "not a flat keyed archive")

    /// The top-level dictionary, as `readDictionary` reads it, with the value of its last
    /// `$objects` key scanned flat.
    mutating func scanKeyedArchive() throws(PropertyListError) -> FlatKeyedArchive {
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
                table = try scanObjects(valueIndex, depth: 1)
                values.append(.array([]))
            } else {
                values.append(try object(valueIndex, depth: 1))
            }
        }
        leave(index)
        guard let table else { throw Self.notFlat }
        return FlatKeyedArchive(topKeys: keys, topValues: values, objectsEntry: entry, objects: table)
    }

    /// `$objects`, as `readArray` reads it, each dictionary element kept flat.
    mutating func scanObjects(_ index: Int, depth: Int) throws(PropertyListError) -> FlatObjectTable {
        let start = offset(index)
        let (count, body) = try count(Int(bytes[start] & 0x0F), at: start, index: index)
        let refs = try refs(count, at: body, index: index)
        guard depth < options.maximumDepth else { throw Self.notFlat }
        try enter(index)
        try firstVisit(index)
        try grow(by: Weight(values: 1, bytes: 0), index: index)
        // `refs` checked that the references fit in the file, so `count` is bounded by its size;
        // the reservations are also bounded by the object count and by the references the
        // file can hold (an entry takes two, a UID one).
        let refSize = trailer.objectRefSize
        let objects = min(count, trailer.objectCount)
        let references = trailer.offsetTableOffset / refSize
        var table = FlatObjectTable(values: [], isDictionary: [], entryStart: [0], entries: [], keys: [], uids: [], others: [])
        table.values.reserveCapacity(objects)
        table.isDictionary.reserveCapacity(objects)
        table.entryStart.reserveCapacity(objects + 1)
        // Archives hold a few entries and UIDs per object; a guess saves most regrowing, and
        // memory reserved but never written costs no more than address space.
        table.entries.reserveCapacity(min(objects * 2, references / 2))
        table.uids.reserveCapacity(min(objects * 3, references))
        var scan = FlatScan(objectCount: trailer.objectCount)
        for i in 0..<count {
            let element = ref(refs + i * refSize)
            let start = offset(element)
            if bytes[start] >> 4 == 0xD {
                try scanDictionary(element, at: start, depth: depth + 1, into: &table, scan: &scan)
                table.values.append(.null)
                table.isDictionary.append(true)
            } else {
                table.values.append(try object(element, depth: depth + 1))
                table.isDictionary.append(false)
            }
            guard table.entries.count <= Int(Int32.max), table.uids.count <= Int(Int32.max), table.others.count <= Int(Int32.max)
            else { throw Self.notFlat }
            table.entryStart.append(Int32(truncatingIfNeeded: table.entries.count))
        }
        leave(index)
        return table
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
                                 scan: inout FlatScan) throws(PropertyListError) {
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
            default:
                entry.kind = .value
                entry.payload = UInt64(table.others.count)
                table.others.append(try object(valueIndex, depth: depth + 1))
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
