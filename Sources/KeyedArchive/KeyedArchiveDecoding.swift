import Foundation
import PropertyList

/// One decode of an archive's property list into a `KeyedArchive`.
struct KeyedArchiveDecoding {
    let plist: PropertyListValue
    let options: KeyedArchiveReadOptions
    var raw: [PropertyListValue] = []
    var classes: [Int: ArchivedClass] = [:]
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
    mutating func decodeReachable(from top: [ArchivedField]) throws(KeyedArchiveError) {
        var pending: [(uid: Int, depth: Int, path: String)] = []
        func push(_ value: ArchivedValue, depth: Int, path: String, into pending: inout [(uid: Int, depth: Int, path: String)]) {
            switch value {
            case .object(let uid): pending.append((uid, depth, path))
            case .array(let elements):
                for (i, e) in elements.enumerated() { push(e, depth: depth, path: "\(path)[\(i)]", into: &pending) }
            case .null, .inline: break
            }
        }
        for f in top.reversed() { push(f.value, depth: 0, path: f.key == options.topKey ? "root" : "$top.\(f.key)", into: &pending) }
        var visited = [Bool](repeating: false, count: raw.count)
        while let (uid, depth, path) = pending.popLast() {
            guard !visited[uid] else { continue }
            visited[uid] = true
            guard depth < options.maximumDepth else {
                throw KeyedArchiveError(.limitExceeded, "references nest deeper than \(options.maximumDepth)", objectUID: uid, keyPath: path)
            }
            let object = try decodeObject(uid, path: path)
            objects[uid] = object
            for f in object.fields.reversed() {
                push(f.value, depth: depth + 1, path: "\(path).\(f.key)", into: &pending)
            }
        }
    }

    // MARK: Objects

    mutating func decodeObject(_ uid: Int, path: String) throws(KeyedArchiveError) -> ArchivedObject {
        let value = raw[uid]
        switch value {
        case .string(let s): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .string(s))
        case .integer, .real, .bool: return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .number(value))
        case .data(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .data(d))
        case .date(let d): return ArchivedObject(uid: uid, archivedClass: nil, fields: [], content: .date(d))
        case .dictionary(let d):
            guard let classValue = d["$class"] else {
                if d["$classname"] != nil {
                    throw KeyedArchiveError(.malformed, "a class description is used as an object", objectUID: uid, keyPath: path)
                }
                throw KeyedArchiveError(.malformed, "object has no $class", objectUID: uid, keyPath: path)
            }
            guard case .uid(let classUID) = classValue else {
                throw KeyedArchiveError(.malformed, "$class is \(article(classValue.typeName)), not a UID", objectUID: uid, keyPath: path)
            }
            let archivedClass = try archivedClass(classUID, objectUID: uid, path: path)
            var fields: [ArchivedField] = []
            fields.reserveCapacity(d.count - 1)
            for (k, v) in d {
                guard case .string(let key) = k else {
                    throw KeyedArchiveError(.malformed, "object has a key that is not a string", objectUID: uid, keyPath: path)
                }
                if key == "$class" { continue }
                fields.append(ArchivedField(key: Self.unescape(key), value: try field(v, in: uid, key: "\(path).\(key)")))
            }
            var object = ArchivedObject(uid: uid, archivedClass: archivedClass, fields: fields, content: .object)
            object.content = ArchivedContentDecoder(raw: raw, object: object).decode()
            return object
        default:
            throw KeyedArchiveError(.malformed, "object is \(article(value.typeName)); objects are strings, numbers, data or dictionaries with a $class", objectUID: uid, keyPath: path)
        }
    }

    /// The class description at `uid`, read once.
    mutating func archivedClass(_ uid: UInt64, objectUID: Int, path: String) throws(KeyedArchiveError) -> ArchivedClass {
        guard uid < UInt64(raw.count), uid > 0 else {
            throw KeyedArchiveError(.malformed, "$class refers to UID \(uid), outside $objects (0..<\(raw.count))", objectUID: objectUID, keyPath: path)
        }
        let index = Int(uid)
        if let known = classes[index] { return known }
        guard case .dictionary(let d) = raw[index] else {
            throw KeyedArchiveError(.malformed, "$class refers to #\(index), which is \(article(raw[index].typeName)), not a class description", objectUID: objectUID, keyPath: path)
        }
        guard case .string(let name)? = d["$classname"] else {
            throw KeyedArchiveError(.malformed, "class description #\(index) has no $classname string", objectUID: objectUID, keyPath: path)
        }
        func strings(_ key: String) throws(KeyedArchiveError) -> [String] {
            guard let v = d[key] else { return [] }
            guard case .array(let a) = v else {
                throw KeyedArchiveError(.malformed, "\(key) of class \(name) is not an array", objectUID: objectUID, keyPath: path)
            }
            var out: [String] = []
            for e in a {
                guard case .string(let s) = e else {
                    throw KeyedArchiveError(.malformed, "\(key) of class \(name) holds \(article(e.typeName)), not a class name", objectUID: objectUID, keyPath: path)
                }
                out.append(s)
            }
            return out
        }
        var chain = try strings("$classes")
        if chain.isEmpty { chain = [name] }
        let result = ArchivedClass(uid: index, name: name, chain: chain, hints: try strings("$classhints"))
        classes[index] = result
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
            for (i, e) in elements.enumerated() { out.append(try field(e, in: objectUID, key: "\(key)[\(i)]")) }
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
