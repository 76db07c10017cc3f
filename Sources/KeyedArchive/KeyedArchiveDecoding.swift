import Foundation
import PropertyList

/// One decode of an archive's property list into a `KeyedArchive`.
struct KeyedArchiveDecoding {
    let plist: PropertyListValue
    let options: KeyedArchiveReadOptions
    var raw = RawObjects([])
    /// With a flat table, its parts, held here so that reading them in the loops below takes
    /// no reference counting.
    var flatEntries: [FlatEntry] = []
    var flatEntryStart: [Int32] = []
    var flatUIDs: [UInt32] = []
    /// Per distinct key of the flat table: the field key it makes (unescaped; nil when the key
    /// is not a string), whether it is `$class` by `==` (which skips it as a field) and by
    /// `literallyEqual` (which finds the class, as `PropertyListDictionary` looks it up).
    var flatKeyFields: [String?] = []
    var flatKeySkipped: [Bool] = []
    var flatKeyIsClass: [Bool] = []
    /// Per distinct key: its index in `ArchivedContentDecoder.shortcutKeys`, or -1.
    var flatKeyRole: [Int8] = []
    /// Whether some key of the flat table is not a string (then each object's keys are checked).
    var flatHasNonStringKeys = false
    /// With a flat table, per key: the last UID array converted under it, which the next one
    /// reuses when it holds the same UIDs (`NS.keys` of an array of records, for instance).
    var lastReferences: [(range: Range<Int>, values: [ArchivedValue])?] = []
    /// Per UID: the index in `classes` of the class description it holds, or -1 when not read yet.
    var classSlots: [Int32] = []
    /// Class descriptions already read, with the content decoder for their objects and the
    /// shortcut past it, in three parallel arrays (by the slot in `classSlots`).
    var classes: [ArchivedClass] = []
    var classDecoders: [ArchivedContentDecoder.Decoder?] = []
    var classShortcuts: [ArchivedContentDecoder.Shortcut] = []
    var objects: [ArchivedObject?] = []
    /// With a flat table read without values, while objects are decoded: what reads the
    /// scalars from the file, with one parser for all of them.
    var scalarCursor: FlatScalarReader.Cursor?
    /// Whether `$objects[0]` is "$null", so that UID 0 is nil (as NSKeyedArchiver writes it).
    var zeroIsNull = true

    init(plist: PropertyListValue, options: KeyedArchiveReadOptions) {
        self.plist = plist
        self.options = options
    }

    /// Decodes the archive; with `flat`, `$objects` is that table, and `plist`'s `$objects`
    /// entry only stands in for it.
    mutating func decode(flat: FlatObjectTable? = nil) throws(KeyedArchiveError) -> KeyedArchive {
        let (archiver, topFields) = try prepare(flat: flat)
        let root = Self.root(of: topFields, preferring: options.topKey)
        if let scalars = raw.scalars, raw.values.isEmpty {
            try scalars.withCursor { (cursor) throws(KeyedArchiveError) in
                scalarCursor = cursor
                defer { scalarCursor = nil }
                try decodeReachable(from: topFields)
            }
        } else {
            try decodeReachable(from: topFields)
        }
        return KeyedArchive(archiver: archiver, version: 100_000, top: topFields, root: root, objects: objects, plist: plist)
    }

    /// Checks the top level (`$archiver`, `$version`, `$objects`, `$top`) and sets up the
    /// tables the object decoders read; returns the archiver and the `$top` entries.
    mutating func prepare(flat: FlatObjectTable?) throws(KeyedArchiveError) -> (archiver: String, top: [ArchivedField]) {
        guard case .dictionary(let top) = plist else {
            throw KeyedArchiveError(.notAnArchive, "not a keyed archive: the top level is \(article(plist.typeName)), not a dictionary")
        }
        // $archiver names the archiver class; only NSKeyedArchiver's layout is defined here.
        guard let archiverValue = top["$archiver"] else {
            throw KeyedArchiveError(.notAnArchive, "not a keyed archive: no $archiver")
        }
        guard case .string(let archiver) = archiverValue, archiver == "NSKeyedArchiver" else {
            throw KeyedArchiveError(.notAnArchive, "unsupported $archiver \(Self.describe(archiverValue)); only NSKeyedArchiver is defined")
        }
        guard let versionValue = top["$version"] else {
            throw KeyedArchiveError(.notAnArchive, "not a keyed archive: no $version")
        }
        guard Self.isArchiveVersion(versionValue) else {
            throw KeyedArchiveError(.notAnArchive, "unsupported $version \(Self.describe(versionValue)); NSKeyedArchiver writes 100000")
        }
        guard case .array(let objectList)? = top["$objects"] else {
            throw KeyedArchiveError(.notAnArchive, top["$objects"] == nil ? "not a keyed archive: no $objects" : "$objects is not an array")
        }
        if let flat {
            raw = RawObjects(flat: flat)
            flatEntries = flat.entries
            flatEntryStart = flat.entryStart
            flatUIDs = flat.uids
            for key in flat.keys {
                if case .string(let name) = key {
                    flatKeyFields.append(Self.unescape(name))
                    flatKeySkipped.append(name == "$class")
                    flatKeyIsClass.append(literallyEqual(name, "$class"))
                    let unescaped = Self.unescape(name)
                    flatKeyRole.append(Int8(ArchivedContentDecoder.shortcutKeys.firstIndex(of: unescaped) ?? -1))
                } else {
                    flatHasNonStringKeys = true
                    flatKeyRole.append(-1)
                    flatKeyFields.append(nil)
                    flatKeySkipped.append(false)
                    flatKeyIsClass.append(false)
                }
            }
            lastReferences = Array(repeating: nil, count: flat.keys.count)
        } else {
            raw = RawObjects(objectList)
        }
        // NSKeyedArchiver puts "$null" first, and UID 0 then stands for nil; Foundation's
        // unarchiver requires neither (it takes any reference to a "$null" for nil), so an
        // archive without it is read, its UID 0 an object like any other.
        zeroIsNull = raw.count > 0 && !raw.isFlatDictionary(0) && raw[0] == .string("$null")
        // The flat table's readers (the class index's walk, `KeyedArchiveObjectTable.Reader`)
        // take UID 0 for nil: an archive without "$null" first is left to the tree's decoding.
        if flat != nil, !zeroIsNull {
            throw KeyedArchiveError(.malformed, "$objects[0] is not \"$null\"; read without the flat table")
        }
        guard raw.count <= options.propertyList.maximumObjectCount else {
            throw KeyedArchiveError(.limitExceeded, "$objects holds \(raw.count) entries, over the limit of \(options.propertyList.maximumObjectCount)")
        }
        classSlots = Array(repeating: -1, count: raw.count)
        guard case .dictionary(let topDictionary)? = top["$top"] else {
            throw KeyedArchiveError(.notAnArchive, top["$top"] == nil ? "not a keyed archive: no $top" : "$top is not a dictionary")
        }
        var topFields: [ArchivedField] = []
        for (key, value) in topDictionary {
            guard case .string(let name) = key else {
                throw KeyedArchiveError(.malformed, "$top has a key that is not a string")
            }
            topFields.append(ArchivedField(key: Self.unescape(name), value: try field(value, in: nil, key: "$top.\(name)", rawKey: name)))
        }
        return (archiver, topFields)
    }

    /// Decodes every object reachable from `$top`, iteratively, so that deep graphs need no stack.
    /// Key paths are only worked out when there is an error to report.
    mutating func decodeReachable(from top: [ArchivedField]) throws(KeyedArchiveError) {
        var pending: [(uid: Int, depth: Int)] = []
        for f in top.reversed() { Self.push(f.value, depth: 0, into: &pending) }
        // Filled element by element: `Array(repeating:count:)` copies an optional object a
        // million times through its value witness.
        objects = [ArchivedObject?](unsafeUninitializedCapacity: raw.count) { buffer, initialized in
            buffer.initialize(repeating: nil)
            initialized = buffer.count
        }
        var visited = [Bool](repeating: false, count: raw.count)
        while let (uid, depth) = pending.popLast() {
            guard !visited[uid] else { continue }
            visited[uid] = true
            guard depth < options.maximumDepth else {
                throw KeyedArchiveError(.limitExceeded, "references nest deeper than \(options.maximumDepth)", objectUID: uid, keyPath: path(to: uid, top: top))
            }
            let object: ArchivedObject
            do {
                object = try decodeObject(uid)
            } catch {
                var e = error
                e.keyPath = path(to: uid, top: top)
                throw e
            }
            object.fields.withUnsafeBufferPointer { fields in
                for i in fields.indices.reversed() { Self.push(fields[i].value, depth: depth + 1, into: &pending) }
            }
            objects[uid] = object
        }
    }

    /// A reference, or the references of an array, for `decodeReachable` (and the small-archive
    /// reader's walk) to visit, pushed so that they are visited in field order.
    static func push(_ value: ArchivedValue, depth: Int, into pending: inout [(uid: Int, depth: Int)]) {
        switch value {
        case .object(let uid): pending.append((uid, depth))
        case .array(let elements):
            elements.withUnsafeBufferPointer { elements in
                for i in elements.indices.reversed() { push(elements[i], depth: depth, into: &pending) }
            }
        case .null, .inline: break
        }
    }

    /// The shortest key path from `$top` to `target` through the objects decoded so far.
    ///
    /// Only a parent link is kept per object while searching, and the path shows at most its
    /// first component and its last ten, keys cut to 100 characters: building every path as
    /// text made an error in a 50 kB archive of deep objects and long keys cost gigabytes.
    func path(to target: Int, top: [ArchivedField]) -> String {
        var links: [Int: (parent: Int, label: String)] = [:]
        var queue: [Int] = []
        func visit(_ value: ArchivedValue, parent: Int, _ label: String) {
            switch value {
            case .object(let uid) where links[uid] == nil:
                links[uid] = (parent, label)
                queue.append(uid)
            case .array(let elements):
                for (i, e) in elements.enumerated() { visit(e, parent: parent, "\(label)[\(i)]") }
            default: break
            }
        }
        for f in top { visit(f.value, parent: -1, f.key == "root" ? "root" : "$top.\(Self.shortened(f.key))") }
        var head = 0
        while head < queue.count, links[target] == nil {
            let uid = queue[head]
            head += 1
            guard let object = objects[uid] else { continue }
            for f in object.fields { visit(f.value, parent: uid, "." + Self.shortened(f.key)) }
        }
        // The links form a tree: each object is linked once, to one found before it.
        var labels: [String] = []
        var current = target
        while current >= 0, let link = links[current] {
            labels.append(link.label)
            current = link.parent
        }
        guard let first = labels.last else { return "#\(target)" }
        guard labels.count > 11 else { return labels.reversed().joined() }
        return first + "…(\(labels.count - 11) more)…" + labels.prefix(10).reversed().joined()
    }

    /// A key as a path shows it: at most 100 characters.
    static func shortened(_ key: String) -> String {
        key.utf8.count <= 100 || key.count <= 100 ? key : String(key.prefix(100)) + "…"
    }

    // MARK: Objects

    mutating func decodeObject(_ uid: Int) throws(KeyedArchiveError) -> ArchivedObject {
        if raw.isFlatDictionary(uid) { return try decodeFlatObject(uid) }
        let value: PropertyListValue
        if !raw.values.isEmpty {
            value = raw.values[uid]
        } else if scalarCursor != nil {
            // Not a flat dictionary (checked above): a scalar the flat scan checked.
            value = scalarCursor?.element(uid) ?? .null
        } else {
            value = raw[uid]
        }
        switch value {
        case .string(let s): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .string(s))
        case .integer, .real, .bool: return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .number(value))
        case .data(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .data(d))
        case .date(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .date(d))
        case .dictionary(let d):
            // An object is a dictionary of string keys with a `$class` reference; any other
            // dictionary is a value that Foundation's unarchiver hands back as it is.
            guard case .uid(let classUID)? = d["$class"], d.keys.allSatisfy({ $0.stringValue != nil }) else {
                guard options.keepsEntriesThatAreNoObjects else { throw Self.noObject(d, uid: uid) }
                return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .propertyList(value))
            }
            let (archivedClass, decoder, _) = try archivedClass(classUID, objectUID: uid)
            var fields: [ArchivedField] = []
            fields.reserveCapacity(d.count - 1)
            for (k, v) in d {
                guard case .string(let key) = k else {
                    throw KeyedArchiveError(.malformed, "object has a key that is not a string", objectUID: uid)
                }
                if key == "$class" { continue }
                fields.append(ArchivedField(key: Self.unescape(key), value: try field(v, in: uid, key: key)))
            }
            var object = ArchivedObject(uid: uid, archivedClass: archivedClass, fields: fields, content: .object)
            if let decoder {
                object.content = decoder(ArchivedContentDecoder(raw: raw, object: object)) ?? .object
            }
            return object
        case .array, .set, .uid, .null, .invalidUTF16String:
            // Handed back as it is, as Foundation's unarchiver does (`__SwiftValue.store`).
            guard options.keepsEntriesThatAreNoObjects else {
                throw KeyedArchiveError(.malformed, "object is \(article(value.typeName)); objects are strings, numbers, data or dictionaries with a $class", objectUID: uid)
            }
            return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .propertyList(value))
        }
    }

    /// The error for a dictionary of `$objects`, referenced as an object, that is none.
    static func noObject(_ d: PropertyListDictionary, uid: Int) -> KeyedArchiveError {
        guard let classValue = d["$class"] else {
            if d["$classname"] != nil {
                return KeyedArchiveError(.malformed, "a class description is used as an object", objectUID: uid)
            }
            return KeyedArchiveError(.malformed, "object has no $class", objectUID: uid)
        }
        guard case .uid = classValue else {
            return KeyedArchiveError(.malformed, "$class is \(article(classValue.typeName)), not a UID", objectUID: uid)
        }
        return KeyedArchiveError(.malformed, "object has a key that is not a string", objectUID: uid)
    }

    /// Whether `$version` is what Foundation's unarchiver takes for 100000: a number whose
    /// `int32Value` is 100000 (an integer's low 32 bits; a real truncated, or 0x80000000 out
    /// of range, as x86 converts it).
    static func isArchiveVersion(_ value: PropertyListValue) -> Bool {
        switch value {
        case .integer(let i): return Int32(truncatingIfNeeded: i.low) == 100_000
        case .real(let d): return d > -2147483649.0 && d < 2147483648.0 && Int32(d.rounded(.towardZero)) == 100_000
        default: return false
        }
    }

    /// The entry of `$class` among a flat object's entries `start..<end`: the last one, as a
    /// dictionary lookup finds it, or `end` when there is none.
    @inline(__always)
    func flatClassEntry(_ start: Int, _ end: Int) -> Int {
        var i = end
        while i > start {
            i -= 1
            if flatKeyIsClass[Int(flatEntries[i].key)] { return i }
        }
        return end
    }

    /// An object kept as entries of a flat table: what the `.dictionary` case of `decodeObject`
    /// does with the same dictionary.
    mutating func decodeFlatObject(_ uid: Int) throws(KeyedArchiveError) -> ArchivedObject {
        let start = Int(flatEntryStart[uid]), end = Int(flatEntryStart[uid + 1])
        let classEntry = flatClassEntry(start, end)
        // Without a `$class` reference, or with a key that is not a string, the dictionary is a
        // value (see `decodeObject`).
        guard classEntry < end, flatEntries[classEntry].kind == .uid,
              !flatHasNonStringKeys || (start..<end).allSatisfy({ flatKeyFields[Int(flatEntries[$0].key)] != nil }) else {
            guard options.keepsEntriesThatAreNoObjects else {
                guard case .dictionary(let d) = raw.dictionary(uid) else {
                    throw KeyedArchiveError(.malformed, "object has no $class", objectUID: uid)
                }
                throw Self.noObject(d, uid: uid)
            }
            return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .propertyList(raw.dictionary(uid)))
        }
        let classUID = flatEntries[classEntry].payload
        var slot = classUID < UInt64(raw.count) ? Int(classSlots[Int(classUID)]) : -1
        if slot < 0 {
            _ = try archivedClass(classUID, objectUID: uid)
            slot = Int(classSlots[Int(classUID)])
        }
        var fields: [ArchivedField] = []
        fields.reserveCapacity(end - start - 1)
        var first = ArchivedContentDecoder.FirstFields()
        for i in start..<end {
            let entry = flatEntries[i]
            let key = Int(entry.key)
            guard let name = flatKeyFields[key] else {
                throw KeyedArchiveError(.malformed, "object has a key that is not a string", objectUID: uid)
            }
            if flatKeySkipped[key] { continue }
            let role = Int(flatKeyRole[key])
            if role >= 0 { first.note(role, at: fields.count) }
            fields.append(ArchivedField(key: name, value: try field(entry, objectUID: uid)))
        }
        if let content = ArchivedContentDecoder.shortcutContent(classShortcuts[slot], fields: fields, first: first) {
            return ArchivedObject(uid: uid, archivedClass: classes[slot], fields: fields, content: content)
        }
        var object = ArchivedObject(uid: uid, archivedClass: classes[slot], fields: fields, content: .object)
        if let decoder = classDecoders[slot] {
            object.content = decoder(ArchivedContentDecoder(raw: raw, object: object)) ?? .object
        }
        return object
    }

    /// A flat entry's value as a field: what `field` makes of the value it stands for.
    mutating func field(_ entry: FlatEntry, objectUID: Int) throws(KeyedArchiveError) -> ArchivedValue {
        switch entry.kind {
        case .uid:
            let u = UInt64(entry.payload)
            if u >= UInt64(raw.count), isUnasked(entry) { return .inline(.uid(u)) }
            return try reference(u, objectUID: objectUID)
        case .uids:
            let range = entry.uidRange
            // An empty array holds no reference: kept inline, as `field(_:in:key:)` keeps it.
            guard !range.isEmpty else { return .inline(.array([])) }
            if let last = lastReferences[Int(entry.key)], last.range.count == range.count,
               flatUIDs.withUnsafeBufferPointer({ uids in
                   UnsafeBufferPointer(rebasing: uids[last.range]).elementsEqual(UnsafeBufferPointer(rebasing: uids[range]))
               }) {
                return .array(last.values)
            }
            let objectCount = UInt64(raw.count)
            let out: [ArchivedValue]
            if flatUIDs.withUnsafeBufferPointer({ uids in uids[range].allSatisfy { UInt64($0) < objectCount } }) {
                // Every UID in range: the references written in place, with no checked appends.
                out = flatUIDs.withUnsafeBufferPointer { uids in
                    [ArchivedValue](unsafeUninitializedCapacity: range.count) { buffer, initialized in
                        for (n, i) in range.enumerated() {
                            let u = uids[i]
                            buffer.initializeElement(at: n, to: u == 0 && zeroIsNull ? .null : .object(uid: Int(u)))
                        }
                        initialized = range.count
                    }
                }
            } else {
                // The first UID out of range is the error, as `reference` words it.
                var checked: [ArchivedValue] = []
                let unasked = isUnasked(entry)
                for i in range {
                    let u = UInt64(flatUIDs[i])
                    checked.append(unasked && u >= objectCount ? .inline(.uid(u)) : try reference(u, objectUID: objectUID))
                }
                out = checked
            }
            lastReferences[Int(entry.key)] = (range, out)
            return .array(out)
        case .scalar where scalarCursor != nil:
            // Read first, in a statement of its own: as an argument of the call below, reading
            // (which mutates the cursor) would make Swift copy this whole decoding first.
            let value = scalarCursor?.object(Int(truncatingIfNeeded: entry.payload)) ?? .null
            return try field(value, in: objectUID, key: "")
        case .scalar, .value:
            return try field(raw.value(of: entry), in: objectUID, key: "")
        }
    }

    /// Whether a flat entry's key is one no decoder asks for (`isUnaskedKey`).
    func isUnasked(_ entry: FlatEntry) -> Bool {
        guard case .string(let key) = raw.keys[Int(entry.key)] else { return false }
        return Self.isUnaskedKey(key)
    }

    @inline(__always)
    func reference(_ u: UInt64, objectUID: Int) throws(KeyedArchiveError) -> ArchivedValue {
        guard u < UInt64(raw.count) else {
            throw KeyedArchiveError(.malformed, "reference to UID \(u), outside $objects (0..<\(raw.count))", objectUID: objectUID)
        }
        return u == 0 && zeroIsNull ? .null : .object(uid: Int(u))
    }

    /// The class description at `uid`, read once, with the content decoder for its objects.
    mutating func archivedClass(_ uid: UInt64, objectUID: Int) throws(KeyedArchiveError)
        -> (ArchivedClass, ArchivedContentDecoder.Decoder?, ArchivedContentDecoder.Shortcut) {
        guard uid < UInt64(raw.count), uid > 0 else {
            throw KeyedArchiveError(.malformed, "$class refers to UID \(uid), outside $objects (0..<\(raw.count))", objectUID: objectUID)
        }
        let index = Int(uid)
        let slot = Int(classSlots[index])
        if slot >= 0 { return (classes[slot], classDecoders[slot], classShortcuts[slot]) }
        guard case .dictionary(let d) = raw[index] else {
            throw KeyedArchiveError(.malformed, "$class refers to #\(index), which is \(article(raw[index].typeName)), not a class description", objectUID: objectUID)
        }
        // `$classes` and `$classhints` are read when they are arrays of strings; Foundation's
        // unarchiver ignores them otherwise (`as? [String]`), and so does this.
        func strings(_ key: String) -> [String] {
            guard case .array(let a)? = d[key] else { return [] }
            var out: [String] = []
            for e in a {
                guard case .string(let s) = e else { return [] }
                out.append(s)
            }
            return out
        }
        let hints = strings("$classhints")
        // Without a `$classname`, Foundation's unarchiver takes the first of the hints that names
        // a class it has; with no classes of its own here, this takes the first hint.
        guard let name = d["$classname"]?.stringValue ?? hints.first else {
            throw KeyedArchiveError(.malformed, "class description #\(index) has no $classname string (nor $classhints)", objectUID: objectUID)
        }
        var chain = strings("$classes")
        if chain.isEmpty { chain = [name] }
        let result = ArchivedClass(uid: index, name: name, chain: chain, hints: hints)
        let decoderName = ArchivedContentDecoder.decoderName(for: result)
        let decoder = decoderName.flatMap { ArchivedContentDecoder.decoders[$0] }
        let shortcut = ArchivedContentDecoder.shortcut(forDecoderNamed: decoderName)
        classSlots[index] = Int32(truncatingIfNeeded: classes.count)
        classes.append(result)
        classDecoders.append(decoder)
        classShortcuts.append(shortcut)
        return (result, decoder, shortcut)
    }

    /// A field value: UIDs become references, checked against `$objects`.
    ///
    /// - Parameter rawKey: the key as stored, when `key` is not (a `$top` entry's path).
    func field(_ value: PropertyListValue, in objectUID: Int?, key: String, rawKey: String? = nil) throws(KeyedArchiveError) -> ArchivedValue {
        switch value {
        case .uid(let u):
            guard u < UInt64(raw.count) else {
                // No decoder asks for a key that starts with one `$` (NSKeyedArchiver escapes a
                // coder's own `$` keys as `$$`; unkeyed coding's are `$0`, `$1`, …): Foundation's
                // unarchiver never follows such a reference, so it is kept as the UID it is.
                if Self.isUnaskedKey(rawKey ?? key) { return .inline(value) }
                throw KeyedArchiveError(.malformed, "reference to UID \(u), outside $objects (0..<\(raw.count))", objectUID: objectUID, keyPath: key)
            }
            return u == 0 && zeroIsNull ? .null : .object(uid: Int(u))
        case .array(let elements):
            guard elements.contains(where: { if case .uid = $0 { true } else { false } }) else { return .inline(value) }
            var out: [ArchivedValue] = []
            out.reserveCapacity(elements.count)
            // One level only: archivers never nest arrays of references, and converting nested
            // arrays would copy out every subtree the property list shares (a 500-byte file of
            // arrays that each hold the next one twice would become gigabytes of references).
            for e in elements {
                if case .array = e { out.append(.inline(e)) } else { out.append(try field(e, in: objectUID, key: key, rawKey: rawKey)) }
            }
            return .array(out)
        default:
            return .inline(value)
        }
    }

    /// The root object: the `topKey` entry (`root` by default); failing that, a lone entry, or
    /// the first unkeyed one (`$0`), as archives of other top-level keys hold them.
    static func root(of top: [ArchivedField], preferring topKey: String) -> ArchivedValue? {
        if let named = top.first(where: { $0.key == topKey }) { return named.value }
        if top.count == 1 { return top[0].value }
        return top.first(where: { $0.key == "$0" })?.value
    }

    /// Whether no decoder can ask for `key`: it starts with one `$` and is neither `$class` nor
    /// one of unkeyed coding's `$0`, `$1`, ….
    static func isUnaskedKey(_ key: String) -> Bool {
        guard key.hasPrefix("$"), !key.hasPrefix("$$"), key != "$class" else { return false }
        let rest = key.utf8.dropFirst()
        return rest.isEmpty || !rest.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `$$key` is the escaped form of a key that starts with `$`.
    static func unescape(_ key: String) -> String {
        key.hasPrefix("$$") ? String(key.dropFirst()) : key
    }

    static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let s): "\"\(s)\""
        case .integer(let i): i.description
        default: value.typeName
        }
    }
}

func article(_ noun: String) -> String {
    (["a", "e", "i", "o", "u"].contains(noun.first.map(String.init) ?? "") ? "an " : "a ") + noun
}
