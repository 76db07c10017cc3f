import Foundation
import PropertyList

/// What `SmallArchiveReader` keeps from one archive to the next, and the reading itself: a
/// value, so that reading an archive is one access to the reader's state rather than one per
/// buffer touched.
struct SmallArchiveReading {
    /// Class descriptions met, most recent last, to hand out again when a row's class
    /// dictionary says the same.
    var knownClasses: [ArchivedClass] = []
    /// The content decoder of each known class, by its place in `knownClasses`.
    var knownDecoders: [KnownDecoder] = []
    static let knownClassLimit = 64
    /// Field keys made, by the object index of the key in the row they were read from.
    var fieldKeys: [FieldKey?] = []
    /// The last index made, handed out again when the next row's is the same.
    var lastIndex: KeyedArchiveClassIndex?
    /// Working buffers, kept between rows.
    var pending: [(uid: Int, depth: Int)] = []
    var children: [Int] = []
    var slots: [Int32] = []
    var rowClasses: [ArchivedClass] = []
    /// Per class of the row: the UID of its description, and its decoder, by slot.
    var rowClassUIDs: [UInt64] = []
    var rowDecoders: [KnownDecoder] = []

    /// The class index of a binary archive, as `KeyedArchiveClassIndex(data:options:)` reads
    /// it; nil when the archive is not small or not in the common layout, or does not decode
    /// (then `KeyedArchiveClassIndex(data:options:)` says what it is).
    mutating func classIndex(_ data: Data, options: KeyedArchiveReadOptions) -> KeyedArchiveClassIndex? {
        guard data.count <= CompactKeyedArchive.maximumBytes else { return nil }
        return data.withUnsafeBytes { raw -> KeyedArchiveClassIndex? in
            CompactKeyedArchive.read(raw, options: options.propertyList) { archive in classIndex(archive, options: options) }
        }
    }

    /// The top-level checks `KeyedArchiveDecoding.prepare` makes: `$archiver`, `$version`,
    /// `$objects[0]`, the object count; the `$top` dictionary's entries, or nil.
    static func top(of archive: CompactKeyedArchive, options: KeyedArchiveReadOptions) -> (refs: Int, count: Int)? {
        guard case .scalar(let archiver)? = archive.topValue("$archiver"), archive.isASCII(archiver, "NSKeyedArchiver"),
              case .scalar(let version)? = archive.topValue("$version"), archive.integer(version) == 100_000,
              archive.elementCount > 0, !archive.isDictionary(element: 0), archive.isASCII(archive.elementObject(0), "$null"),
              archive.elementCount <= options.propertyList.maximumObjectCount,
              case .dictionary(let refs, let count)? = archive.topValue("$top")
        else { return nil }
        return (refs, count)
    }

    mutating func classIndex(_ archive: CompactKeyedArchive, options: KeyedArchiveReadOptions) -> KeyedArchiveClassIndex? {
        let count = archive.elementCount
        // Depth stays below the object count: within the limit, it needs no check.
        guard count < options.maximumDepth, let top = Self.top(of: archive, options: options) else { return nil }
        pending.removeAll(keepingCapacity: true)
        // `$top`'s references, pushed last to first so that they are visited first to last.
        var i = top.count
        while i > 0 {
            i -= 1
            switch archive.value(i, refs: top.refs, count: top.count) {
            case .uid(let u):
                guard u < UInt64(count) else { return nil }
                if u != 0 { pending.append((Int(u), 0)) }
            case .array(let refs, let n):
                // References one level down; the other elements stay inline.
                var j = n
                while j > 0 {
                    j -= 1
                    guard case .uid(let u) = archive.arrayElement(j, refs: refs) else { continue }
                    guard u < UInt64(count) else { return nil }
                    if u != 0 { pending.append((Int(u), 0)) }
                }
            case .dictionary, .scalar:
                break
            }
        }
        slots.removeAll(keepingCapacity: true)
        slots.append(contentsOf: repeatElement(KeyedArchiveClassIndex.notDecoded, count: count))
        rowClasses.removeAll(keepingCapacity: true)
        rowClassUIDs.removeAll(keepingCapacity: true)
        rowDecoders.removeAll(keepingCapacity: true)
        var objectCount = 0
        while let (uid, depth) = pending.popLast() {
            guard slots[uid] == KeyedArchiveClassIndex.notDecoded else { continue }
            children.removeAll(keepingCapacity: true)
            guard let slot = classify(uid, in: archive) else { return nil }
            slots[uid] = slot
            objectCount += 1
            var k = children.count
            while k > 0 {
                k -= 1
                pending.append((children[k], depth + 1))
            }
        }
        if let last = lastIndex, last.objectCount == objectCount, last.classes.count == rowClasses.count,
           zip(last.classes, rowClasses).allSatisfy({ $0 === $1 }), last.slots == slots {
            return last
        }
        let index = KeyedArchiveClassIndex(classes: rowClasses, slots: slots, objectCount: objectCount)
        lastIndex = index
        return index
    }

    /// Object `uid`'s class slot, with its references appended to `children` in field order,
    /// as `KeyedArchiveDecoding.classifyObject` finds them; nil where it throws.
    mutating func classify(_ uid: Int, in archive: CompactKeyedArchive) -> Int32? {
        guard archive.isDictionary(element: uid) else {
            switch archive.scalarKind(element: uid) {
            case .string: return KeyedArchiveClassIndex.inlineString
            case .number: return KeyedArchiveClassIndex.inlineNumber
            case .data: return KeyedArchiveClassIndex.inlineData
            case .date: return KeyedArchiveClassIndex.inlineDate
            case .dictionary, .other: return nil
            }
        }
        let count = UInt64(archive.elementCount)
        let (refs, n) = archive.entries(ofElement: uid)
        // `$class`: the last one.
        var classUID: UInt64?
        var i = n
        while i > 0 {
            i -= 1
            guard archive.keyRole(archive.key(i, refs: refs)) == .class else { continue }
            guard case .uid(let u) = archive.value(i, refs: refs, count: n) else { return nil }
            classUID = u
            break
        }
        guard let classUID, let slot = classSlot(classUID, in: archive) else { return nil }
        for i in 0..<n {
            if archive.keyRole(archive.key(i, refs: refs)) == .class { continue }
            switch archive.value(i, refs: refs, count: n) {
            case .uid(let u):
                guard u < count else { return nil }
                if u != 0 { children.append(Int(u)) }
            case .array(let elementRefs, let elements):
                for j in 0..<elements {
                    guard case .uid(let u) = archive.arrayElement(j, refs: elementRefs) else { continue }
                    guard u < count else { return nil }
                    if u != 0 { children.append(Int(u)) }
                }
            case .scalar, .dictionary:
                break
            }
        }
        return slot
    }

    /// The slot in the row's classes of the class description at `uid`, read (or found among
    /// the known ones) the first time; nil where `KeyedArchiveDecoding.archivedClass` throws.
    mutating func classSlot(_ uid: UInt64, in archive: CompactKeyedArchive) -> Int32? {
        if let slot = rowClassUIDs.firstIndex(of: uid) { return Int32(slot) }
        guard uid > 0, uid < UInt64(archive.elementCount), archive.isDictionary(element: Int(uid)) else { return nil }
        let (refs, n) = archive.entries(ofElement: Int(uid))
        var name: CompactKeyedArchive.ObjectIndex?
        var chain: (refs: Int, count: Int)?
        var hints: (refs: Int, count: Int)?
        var hasChain = false, hasHints = false
        // Each key's last entry, as a dictionary lookup finds it.
        var i = n
        while i > 0 {
            i -= 1
            let role = archive.keyRole(archive.key(i, refs: refs))
            if name == nil, role == .className {
                guard case .scalar(let object) = archive.value(i, refs: refs, count: n), archive.isString(object) else { return nil }
                name = object
            } else if !hasChain, role == .classes {
                hasChain = true
                guard case .array(let r, let c) = archive.value(i, refs: refs, count: n) else { return nil }
                chain = (r, c)
            } else if !hasHints, role == .classHints {
                hasHints = true
                guard case .array(let r, let c) = archive.value(i, refs: refs, count: n) else { return nil }
                hints = (r, c)
            }
        }
        guard let name else { return nil }
        // Names in `$classes` and `$classhints` are strings.
        func allStrings(_ list: (refs: Int, count: Int)?) -> Bool {
            guard let list else { return true }
            for j in 0..<list.count {
                guard case .scalar(let object) = archive.arrayElement(j, refs: list.refs), archive.isString(object) else { return false }
            }
            return true
        }
        guard allStrings(chain), allStrings(hints) else { return nil }
        let place = known(uid: Int(uid), name: name, chain: chain, hints: hints, in: archive)
        rowClasses.append(knownClasses[place])
        rowDecoders.append(knownDecoders[place])
        rowClassUIDs.append(uid)
        return Int32(rowClasses.count - 1)
    }

    /// The place in `knownClasses` of the class description a class dictionary says: one met
    /// before when it says the same, else a new one, remembered with its content decoder.
    mutating func known(uid: Int, name: Int, chain: (refs: Int, count: Int)?, hints: (refs: Int, count: Int)?,
               in archive: CompactKeyedArchive) -> Int {
        // An empty `$classes` stands for the class alone.
        let chainCount = chain.map { max(1, $0.count) } ?? 1
        func matches(_ known: ArchivedClass) -> Bool {
            guard known.uid == uid, known.chain.count == chainCount, known.hints.count == (hints?.count ?? 0),
                  Self.equal(archive, name, known.name) else { return false }
            if let chain, chain.count > 0 {
                for j in 0..<chain.count {
                    guard case .scalar(let object) = archive.arrayElement(j, refs: chain.refs),
                          Self.equal(archive, object, known.chain[j]) else { return false }
                }
            } else if known.chain[0] != known.name {
                return false
            }
            if let hints {
                for j in 0..<hints.count {
                    guard case .scalar(let object) = archive.arrayElement(j, refs: hints.refs),
                          Self.equal(archive, object, known.hints[j]) else { return false }
                }
            }
            return true
        }
        var k = knownClasses.count
        while k > 0 {
            k -= 1
            if matches(knownClasses[k]) { return k }
        }
        func strings(_ list: (refs: Int, count: Int)?) -> [String] {
            guard let list else { return [] }
            return (0..<list.count).map { j in
                guard case .scalar(let object) = archive.arrayElement(j, refs: list.refs) else { return "" }
                return archive.string(object) ?? ""
            }
        }
        let nameText = archive.string(name) ?? ""
        var chainNames = strings(chain)
        if chainNames.isEmpty { chainNames = [nameText] }
        let made = ArchivedClass(uid: uid, name: nameText, chain: chainNames, hints: strings(hints))
        let decoderName = ArchivedContentDecoder.decoderName(for: made)
        let decoder = KnownDecoder(decoder: decoderName.flatMap { ArchivedContentDecoder.decoders[$0] },
                                   shortcut: ArchivedContentDecoder.shortcut(forDecoderNamed: decoderName))
        if knownClasses.count >= Self.knownClassLimit {
            knownClasses.removeFirst()
            knownDecoders.removeFirst()
        }
        knownClasses.append(made)
        knownDecoders.append(decoder)
        return knownClasses.count - 1
    }

    /// Whether string object `index` reads as `text`, byte for byte.
    static func equal(_ archive: CompactKeyedArchive, _ index: Int, _ text: String) -> Bool {
        if let ascii = archive.asciiString(index) {
            var text = text
            return text.withUTF8 { utf8 in
                guard utf8.count == ascii.count else { return false }
                guard let a = utf8.baseAddress, let b = ascii.baseAddress else { return true }
                return memcmp(a, b, utf8.count) == 0
            }
        }
        guard let decoded = archive.string(index) else { return false }
        return literallyEqual(decoded, text)
    }
}
