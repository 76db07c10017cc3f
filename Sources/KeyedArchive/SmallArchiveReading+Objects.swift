import Foundation
import PropertyList

extension SmallArchiveReading {
    /// A field key as the decoder makes it from a key of `$objects`: unescaped, with its role
    /// among the content shortcuts' keys.
    struct FieldKey {
        /// The key as written.
        var written: String
        var field: String
        var role: Int8
    }

    /// A class met, with the content decoder for its objects and the shortcut past it.
    struct KnownDecoder {
        var decoder: ArchivedContentDecoder.Decoder?
        var shortcut: ArchivedContentDecoder.Shortcut
    }

    /// A binary archive decoded as `KeyedArchive(data:options:)` decodes it; nil when the
    /// archive is not small or not in the common layout, or does not decode (then
    /// `KeyedArchive(data:options:)` says what it is).
    mutating func archive(_ data: Data, options: KeyedArchiveReadOptions) -> KeyedArchive? {
        guard data.count <= CompactKeyedArchive.maximumBytes else { return nil }
        let decoded = data.withUnsafeBytes { raw -> (archiver: String, top: [ArchivedField], objects: [ArchivedObject?])? in
            CompactKeyedArchive.read(raw, options: options.propertyList) { archive in decode(archive, options: options) }
        }
        guard let decoded else { return nil }
        var archive = KeyedArchive(archiver: decoded.archiver, version: 100_000, top: decoded.top,
                                   root: KeyedArchiveDecoding.root(of: decoded.top, preferring: options.topKey),
                                   objects: decoded.objects, plist: .null)
        archive.plistSource = PlistSource(DeferredPlist(data: data, options: options.propertyList))
        return archive
    }

    /// What `KeyedArchiveDecoding.decode(flat:)` makes of the archive: `prepare`'s checks,
    /// then every object reachable from `$top`, in `decodeReachable`'s order.
    mutating func decode(_ archive: CompactKeyedArchive, options: KeyedArchiveReadOptions)
        -> (archiver: String, top: [ArchivedField], objects: [ArchivedObject?])? {
        let count = archive.elementCount
        // Depth stays below the object count: within the limit, it needs no check.
        guard count < options.maximumDepth, let top = Self.top(of: archive, options: options) else { return nil }
        var topFields: [ArchivedField] = []
        topFields.reserveCapacity(top.count)
        for i in 0..<top.count {
            guard let key = fieldKey(archive.key(i, refs: top.refs), in: archive),
                  let value = field(archive.value(i, refs: top.refs, count: top.count), in: archive) else { return nil }
            topFields.append(ArchivedField(key: key.field, value: value))
        }
        pending.removeAll(keepingCapacity: true)
        for f in topFields.reversed() { KeyedArchiveDecoding.push(f.value, depth: 0, into: &pending) }
        var objects = [ArchivedObject?](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.initialize(repeating: nil)
            initialized = count
        }
        let raw = RawObjects(compact: archive)
        rowClasses.removeAll(keepingCapacity: true)
        rowClassUIDs.removeAll(keepingCapacity: true)
        rowDecoders.removeAll(keepingCapacity: true)
        while let (uid, depth) = pending.popLast() {
            guard objects[uid] == nil else { continue }
            guard let object = decodeObject(uid, in: archive, raw: raw) else { return nil }
            object.fields.withUnsafeBufferPointer { fields in
                for i in fields.indices.reversed() { KeyedArchiveDecoding.push(fields[i].value, depth: depth + 1, into: &pending) }
            }
            objects[uid] = object
        }
        return ("NSKeyedArchiver", topFields, objects)
    }

    /// Element `uid` as an object, as `decodeObject` and `decodeFlatObject` make it; nil where
    /// they throw.
    mutating func decodeObject(_ uid: Int, in archive: CompactKeyedArchive, raw: RawObjects) -> ArchivedObject? {
        guard archive.isDictionary(element: uid) else {
            let value = archive.scalar(archive.elementObject(uid))
            switch value {
            case .string(let s): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .string(s))
            case .integer, .real, .bool: return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .number(value))
            case .data(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .data(d))
            case .date(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .date(d))
            default: return nil
            }
        }
        let (refs, n) = archive.entries(ofElement: uid)
        // The fields in one pass, `$class` (the last one, as a dictionary lookup finds it)
        // skipped and noted; the class is read after them.
        var fields: [ArchivedField] = []
        fields.reserveCapacity(n - 1)
        var first = ArchivedContentDecoder.FirstFields()
        var classEntry = -1
        for i in 0..<n {
            let keyObject = archive.key(i, refs: refs)
            if archive.keyRole(keyObject) == .class {
                classEntry = i
                continue
            }
            guard let key = fieldKey(keyObject, in: archive) else { return nil }
            if key.role >= 0 { first.note(Int(key.role), at: fields.count) }
            guard let value = field(archive.value(i, refs: refs, count: n), in: archive) else { return nil }
            fields.append(ArchivedField(key: key.field, value: value))
        }
        guard classEntry >= 0, case .uid(let classUID) = archive.value(classEntry, refs: refs, count: n),
              let slot = classSlot(classUID, in: archive) else { return nil }
        let index = Int(slot)
        let archivedClass = rowClasses[index]
        let known = rowDecoders[index]
        if let content = ArchivedContentDecoder.shortcutContent(known.shortcut, fields: fields, first: first) {
            return ArchivedObject(uid: uid, archivedClass: archivedClass, fields: fields, content: content)
        }
        var object = ArchivedObject(uid: uid, archivedClass: archivedClass, fields: fields, content: .object)
        if let decoder = known.decoder {
            object.content = decoder(ArchivedContentDecoder(raw: raw, object: object)) ?? .object
        }
        return object
    }

    /// A value of `$top` or of an object as a field: UIDs become references, checked against
    /// `$objects`, as `KeyedArchiveDecoding.field` makes them; nil where it throws.
    mutating func field(_ value: CompactKeyedArchive.Value, in archive: CompactKeyedArchive) -> ArchivedValue? {
        let count = UInt64(archive.elementCount)
        switch value {
        case .uid(let u):
            guard u < count else { return nil }
            return u == 0 ? .null : .object(uid: Int(u))
        case .array(let refs, let n):
            // References one level down; an array holding none stays inline.
            var references: [ArchivedValue] = []
            var holdsReference = false
            for j in 0..<n {
                if case .uid = archive.arrayElement(j, refs: refs) {
                    holdsReference = true
                    break
                }
            }
            guard holdsReference else { return .inline(archive.arrayValue(refs: refs, count: n)) }
            references.reserveCapacity(n)
            for j in 0..<n {
                switch archive.arrayElement(j, refs: refs) {
                case .uid(let u):
                    guard u < count else { return nil }
                    references.append(u == 0 ? .null : .object(uid: Int(u)))
                case .scalar(let object):
                    references.append(.inline(archive.scalar(object)))
                case .array, .dictionary:
                    // The check takes no collection inside an array.
                    return nil
                }
            }
            return .array(references)
        case .dictionary:
            // Only `$top`'s own values may be dictionaries, and the check takes none inside it.
            return nil
        case .scalar(let object):
            return .inline(archive.scalar(object))
        }
    }

    /// The field key key object `index` makes, kept from the rows before when the same object
    /// holds the same key; nil for a key that is not a string (the check takes none).
    mutating func fieldKey(_ index: Int, in archive: CompactKeyedArchive) -> FieldKey? {
        guard let bytes = archive.asciiString(index) else { return nil }
        if index < fieldKeys.count, let known = fieldKeys[index], Self.equal(bytes, known.written) { return known }
        let written = String(decoding: bytes, as: UTF8.self)
        let field = KeyedArchiveDecoding.unescape(written)
        let made = FieldKey(written: written, field: field,
                            role: Int8(ArchivedContentDecoder.shortcutKeys.firstIndex(of: field) ?? -1))
        if index >= fieldKeys.count { fieldKeys.append(contentsOf: repeatElement(nil, count: index + 1 - fieldKeys.count)) }
        fieldKeys[index] = made
        return made
    }

    /// Whether `bytes` are the UTF-8 of `text`.
    static func equal(_ bytes: UnsafeRawBufferPointer, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let a = utf8.baseAddress, let b = bytes.baseAddress else { return true }
            return memcmp(a, b, utf8.count) == 0
        }
    }
}
