import Foundation
import PropertyList

/// One decode of an archive's property list into a `KeyedArchive`.
struct KeyedArchiveDecoding {
    let plist: PropertyListValue
    let options: KeyedArchiveReadOptions
    var raw: [PropertyListValue] = []
    /// Class descriptions already read, and the content decoder for each, by UID.
    var classes: [ArchivedClass?] = []
    var contentDecoders: [ArchivedContentDecoder.Decoder?] = []
    var objects: [ArchivedObject?] = []

    init(plist: PropertyListValue, options: KeyedArchiveReadOptions) {
        self.plist = plist
        self.options = options
    }

    mutating func decode() throws(KeyedArchiveError) -> KeyedArchive {
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
        guard case .integer(let v) = versionValue, v.int64Value == 100_000 else {
            throw KeyedArchiveError(.notAnArchive, "unsupported $version \(Self.describe(versionValue)); NSKeyedArchiver writes 100000")
        }
        guard case .array(let objectList)? = top["$objects"] else {
            throw KeyedArchiveError(.notAnArchive, top["$objects"] == nil ? "not a keyed archive: no $objects" : "$objects is not an array")
        }
        guard case .string("$null")? = objectList.first else {
            throw KeyedArchiveError(.malformed, "$objects[0] must be \"$null\"")
        }
        guard objectList.count <= options.propertyList.maximumObjectCount else {
            throw KeyedArchiveError(.limitExceeded, "$objects holds \(objectList.count) entries, over the limit of \(options.propertyList.maximumObjectCount)")
        }
        raw = objectList
        objects = Array(repeating: nil, count: raw.count)
        classes = Array(repeating: nil, count: raw.count)
        contentDecoders = Array(repeating: nil, count: raw.count)
        guard case .dictionary(let topDictionary)? = top["$top"] else {
            throw KeyedArchiveError(.notAnArchive, top["$top"] == nil ? "not a keyed archive: no $top" : "$top is not a dictionary")
        }
        var topFields: [ArchivedField] = []
        for (key, value) in topDictionary {
            guard case .string(let name) = key else {
                throw KeyedArchiveError(.malformed, "$top has a key that is not a string")
            }
            topFields.append(ArchivedField(key: Self.unescape(name), value: try field(value, in: nil, key: "$top.\(name)")))
        }
        let root = Self.root(of: topFields, preferring: options.topKey)
        try decodeReachable(from: topFields)
        return KeyedArchive(archiver: archiver, version: 100_000, top: topFields, root: root, objects: objects, plist: plist)
    }

    /// Decodes every object reachable from `$top`, iteratively, so that deep graphs need no stack.
    /// Key paths are only worked out when there is an error to report.
    mutating func decodeReachable(from top: [ArchivedField]) throws(KeyedArchiveError) {
        var pending: [(uid: Int, depth: Int)] = []
        func push(_ value: ArchivedValue, depth: Int, into pending: inout [(uid: Int, depth: Int)]) {
            switch value {
            case .object(let uid): pending.append((uid, depth))
            case .array(let elements): for e in elements.reversed() { push(e, depth: depth, into: &pending) }
            case .null, .inline: break
            }
        }
        for f in top.reversed() { push(f.value, depth: 0, into: &pending) }
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
            objects[uid] = object
            for f in object.fields.reversed() { push(f.value, depth: depth + 1, into: &pending) }
        }
    }

    /// The shortest key path from `$top` to `target` through the objects decoded so far.
    func path(to target: Int, top: [ArchivedField]) -> String {
        var paths: [Int: String] = [:]
        var queue: [Int] = []
        func visit(_ value: ArchivedValue, _ path: String) {
            switch value {
            case .object(let uid) where paths[uid] == nil:
                paths[uid] = path
                queue.append(uid)
            case .array(let elements):
                for (i, e) in elements.enumerated() { visit(e, "\(path)[\(i)]") }
            default: break
            }
        }
        for f in top { visit(f.value, f.key == "root" ? "root" : "$top.\(f.key)") }
        var head = 0
        while head < queue.count, paths[target] == nil || queue[head] != target {
            let uid = queue[head]
            head += 1
            guard let object = objects[uid], let base = paths[uid] else { continue }
            for f in object.fields { visit(f.value, "\(base).\(f.key)") }
        }
        return paths[target] ?? "#\(target)"
    }

    // MARK: Objects

    mutating func decodeObject(_ uid: Int) throws(KeyedArchiveError) -> ArchivedObject {
        let value = raw[uid]
        switch value {
        case .string(let s): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .string(s))
        case .integer, .real, .bool: return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .number(value))
        case .data(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .data(d))
        case .date(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .date(d))
        case .dictionary(let d):
            guard let classValue = d["$class"] else {
                if d["$classname"] != nil {
                    throw KeyedArchiveError(.malformed, "a class description is used as an object", objectUID: uid)
                }
                throw KeyedArchiveError(.malformed, "object has no $class", objectUID: uid)
            }
            guard case .uid(let classUID) = classValue else {
                throw KeyedArchiveError(.malformed, "$class is \(article(classValue.typeName)), not a UID", objectUID: uid)
            }
            let archivedClass = try archivedClass(classUID, objectUID: uid)
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
            if let decoder = contentDecoders[archivedClass.uid] {
                object.content = decoder(ArchivedContentDecoder(raw: raw, object: object)) ?? .object
            }
            return object
        default:
            throw KeyedArchiveError(.malformed, "object is \(article(value.typeName)); objects are strings, numbers, data or dictionaries with a $class", objectUID: uid)
        }
    }

    /// The class description at `uid`, read once.
    mutating func archivedClass(_ uid: UInt64, objectUID: Int) throws(KeyedArchiveError) -> ArchivedClass {
        guard uid < UInt64(raw.count), uid > 0 else {
            throw KeyedArchiveError(.malformed, "$class refers to UID \(uid), outside $objects (0..<\(raw.count))", objectUID: objectUID)
        }
        let index = Int(uid)
        if let known = classes[index] { return known }
        guard case .dictionary(let d) = raw[index] else {
            throw KeyedArchiveError(.malformed, "$class refers to #\(index), which is \(article(raw[index].typeName)), not a class description", objectUID: objectUID)
        }
        guard case .string(let name)? = d["$classname"] else {
            throw KeyedArchiveError(.malformed, "class description #\(index) has no $classname string", objectUID: objectUID)
        }
        func strings(_ key: String) throws(KeyedArchiveError) -> [String] {
            guard let v = d[key] else { return [] }
            guard case .array(let a) = v else {
                throw KeyedArchiveError(.malformed, "\(key) of class \(name) is not an array", objectUID: objectUID)
            }
            var out: [String] = []
            for e in a {
                guard case .string(let s) = e else {
                    throw KeyedArchiveError(.malformed, "\(key) of class \(name) holds \(article(e.typeName)), not a class name", objectUID: objectUID)
                }
                out.append(s)
            }
            return out
        }
        var chain = try strings("$classes")
        if chain.isEmpty { chain = [name] }
        let result = ArchivedClass(uid: index, name: name, chain: chain, hints: try strings("$classhints"))
        classes[index] = result
        contentDecoders[index] = ArchivedContentDecoder.decoder(for: result)
        return result
    }

    /// A field value: UIDs become references, checked against `$objects`.
    func field(_ value: PropertyListValue, in objectUID: Int?, key: String) throws(KeyedArchiveError) -> ArchivedValue {
        switch value {
        case .uid(let u):
            guard u < UInt64(raw.count) else {
                throw KeyedArchiveError(.malformed, "reference to UID \(u), outside $objects (0..<\(raw.count))", objectUID: objectUID, keyPath: key)
            }
            return u == 0 ? .null : .object(uid: Int(u))
        case .array(let elements):
            guard elements.contains(where: { if case .uid = $0 { true } else { false } }) else { return .inline(value) }
            var out: [ArchivedValue] = []
            out.reserveCapacity(elements.count)
            for e in elements { out.append(try field(e, in: objectUID, key: key)) }
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
