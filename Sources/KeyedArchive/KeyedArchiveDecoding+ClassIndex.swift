import PropertyList

extension KeyedArchiveDecoding {
    /// The classes of the objects `decode(flat:)` would decode, found by the same walk with the
    /// same checks, without building objects, fields or contents.
    ///
    /// - Throws: where `decode(flat:)` throws (the caller then reads the archive the ordinary
    ///   way, which reports the error).
    mutating func classify(flat: FlatObjectTable) throws(KeyedArchiveError) -> KeyedArchiveClassIndex {
        try classifyWithTop(flat: flat).index
    }

    /// `classify(flat:)`, with the archiver and the `$top` entries `decode(flat:)` would give.
    mutating func classifyWithTop(flat: FlatObjectTable) throws(KeyedArchiveError)
        -> (index: KeyedArchiveClassIndex, archiver: String, top: [ArchivedField]) {
        let (archiver, top) = try prepare(flat: flat)
        var slots = [Int32](repeating: KeyedArchiveClassIndex.notDecoded, count: raw.count)
        var objectCount = 0
        // Depth-first from `$top`, in `decodeReachable`'s order: each object's references are
        // pushed last to first, so they are visited first to last.
        var pending: [(uid: Int, depth: Int)] = []
        var children: [Int] = []
        for f in top.reversed() {
            switch f.value {
            case .object(let uid): pending.append((uid, 0))
            case .array(let elements):
                for e in elements.reversed() { if case .object(let uid) = e { pending.append((uid, 0)) } }
            case .null, .inline: break
            }
        }
        while let (uid, depth) = pending.popLast() {
            guard slots[uid] == KeyedArchiveClassIndex.notDecoded else { continue }
            guard depth < options.maximumDepth else {
                throw KeyedArchiveError(.limitExceeded, "references nest deeper than \(options.maximumDepth)", objectUID: uid)
            }
            children.removeAll(keepingCapacity: true)
            slots[uid] = try classifyObject(uid, children: &children)
            objectCount += 1
            for child in children.reversed() { pending.append((child, depth + 1)) }
        }
        return (KeyedArchiveClassIndex(classes: classes, slots: slots, objectCount: objectCount), archiver, top)
    }

    /// Object `uid`'s class slot, with its references appended to `children` in field order:
    /// what `decodeObject` checks and `decodeReachable` follows.
    mutating func classifyObject(_ uid: Int, children: inout [Int]) throws(KeyedArchiveError) -> Int32 {
        switch raw.kinds[uid] {
        case .dictionary: break
        case .string: return KeyedArchiveClassIndex.inlineString
        case .number: return KeyedArchiveClassIndex.inlineNumber
        case .data: return KeyedArchiveClassIndex.inlineData
        case .date: return KeyedArchiveClassIndex.inlineDate
        case .other:
            // Anything else fails `decodeObject`, which says how.
            throw KeyedArchiveError(.malformed, "object is not a string, number, data, date or dictionary", objectUID: uid)
        }
        let start = Int(flatEntryStart[uid]), end = Int(flatEntryStart[uid + 1])
        let classEntry = flatClassEntry(start, end)
        guard classEntry < end, flatEntries[classEntry].kind == .uid else {
            throw KeyedArchiveError(.malformed, "object has no $class UID", objectUID: uid)
        }
        let classUID = flatEntries[classEntry].payload
        if classUID >= UInt64(raw.count) || classSlots[Int(classUID)] < 0 {
            _ = try archivedClass(classUID, objectUID: uid)
        }
        let slot = classSlots[Int(classUID)]
        let count = UInt64(raw.count)
        for i in start..<end {
            let entry = flatEntries[i]
            let key = Int(entry.key)
            guard flatKeyFields[key] != nil else {
                throw KeyedArchiveError(.malformed, "object has a key that is not a string", objectUID: uid)
            }
            if flatKeySkipped[key] { continue }
            switch entry.kind {
            case .uid:
                guard entry.payload < count else { throw Self.outside(entry.payload, count, uid) }
                if entry.payload != 0 { children.append(Int(entry.payload)) }
            case .uids:
                for u in flatUIDs[entry.uidRange] {
                    guard UInt64(u) < count else { throw Self.outside(UInt64(u), count, uid) }
                    if u != 0 { children.append(Int(u)) }
                }
            case .scalar:
                // Not a UID: those are `.uid` entries.
                break
            case .value:
                // `field(_:in:key:)`: the UIDs of an array one level down.
                switch raw.value(of: entry) {
                case .uid(let u):
                    guard u < count else { throw Self.outside(u, count, uid) }
                    if u != 0 { children.append(Int(u)) }
                case .array(let elements):
                    for e in elements {
                        guard case .uid(let u) = e else { continue }
                        guard u < count else { throw Self.outside(u, count, uid) }
                        if u != 0 { children.append(Int(u)) }
                    }
                default:
                    break
                }
            }
        }
        return slot
    }

    static func outside(_ u: UInt64, _ count: UInt64, _ uid: Int) -> KeyedArchiveError {
        KeyedArchiveError(.malformed, "reference to UID \(u), outside $objects (0..<\(count))", objectUID: uid)
    }
}
