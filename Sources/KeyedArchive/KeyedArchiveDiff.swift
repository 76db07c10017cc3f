import Bookmark
import Foundation
import PropertyList

/// Every difference between two keyed archives, comparing their object graphs from `$top` by
/// structure and meaning, not by UID: two archives of the same data written by different
/// archivers, whose objects are numbered differently, are equal.
///
/// Objects are compared by class and by what Archivist reads them to mean (an array's elements,
/// a dictionary's entries by key, a color's components, a URL's parts…); objects of classes it
/// does not know, by their fields. A string or number stored inline and the same value stored
/// as an object are equal. Each pair of objects is compared once, so shared objects cost
/// nothing twice and a cycle ends where it closes. Paths read like `root.items[3].tintColor.red`.
public struct KeyedArchiveDiff: Sendable {
    /// Compare arrays of plain values (strings, numbers…) as multisets rather than by index.
    public var arraysAsSets: Bool

    public init(arraysAsSets: Bool = false) {
        self.arraysAsSets = arraysAsSets
    }

    /// The differences from `old` to `new`, in the order the graphs are walked.
    ///
    /// The walk recurses once per object on the way down; reading an archive caps its depth.
    public func differences(from old: KeyedArchive, to new: KeyedArchive) -> [PropertyListDifference] {
        var walk = KeyedArchiveDiffWalk(old: old, new: new, arraysAsSets: arraysAsSets)
        var newTop: [String: ArchivedValue] = [:]
        for entry in new.top where newTop[entry.key] == nil { newTop[entry.key] = entry.value }
        var seen: Set<String> = []
        for entry in old.top where seen.insert(entry.key).inserted {
            walk.path = [Self.topName(entry.key)]
            if let counterpart = newTop[entry.key] {
                walk.compare(entry.value, counterpart)
            } else {
                walk.emit(.removed, old: walk.side(entry.value, in: old), new: nil)
            }
        }
        for entry in new.top where !seen.contains(entry.key) {
            seen.insert(entry.key)
            walk.path = [Self.topName(entry.key)]
            walk.emit(.added, old: nil, new: walk.side(entry.value, in: new))
        }
        return walk.out
    }

    /// `root` for the usual root, `$top.KEY` for any other entry, as `check` names paths.
    static func topName(_ key: String) -> String {
        key == "root" ? "root" : "$top." + KeyedArchiveDiffWalk.keyStep(key)
    }
}

/// The state of one comparison: the pairs of objects compared so far, the current path and
/// what differs.
struct KeyedArchiveDiffWalk {
    let old: KeyedArchive
    let new: KeyedArchive
    let arraysAsSets: Bool
    /// Pairs of (old UID, new UID) already compared or being compared.
    var visited: Set<Pair> = []
    /// The path so far, one rendered step each (`root`, `.items`, `[3]`).
    var path: [String] = []
    var out: [PropertyListDifference] = []

    struct Pair: Hashable {
        var old: Int
        var new: Int
    }

    init(old: KeyedArchive, new: KeyedArchive, arraysAsSets: Bool) {
        self.old = old
        self.new = new
        self.arraysAsSets = arraysAsSets
    }

    /// What a field value stands for once references are followed.
    enum Node {
        case null
        case plain(PropertyListValue)
        case inlineArray([ArchivedValue])
        case object(ArchivedObject)
        /// A reference to nothing decoded (a class description, or past the table).
        case missing(Int)
    }

    func node(_ value: ArchivedValue, in archive: KeyedArchive) -> Node {
        switch value {
        case .null: return .null
        case .inline(let v): return .plain(v)
        case .array(let elements): return .inlineArray(elements)
        case .object(let uid):
            guard uid >= 0, uid < archive.objects.count, let object = archive.objects[uid] else { return .missing(uid) }
            if object.archivedClass == nil, let plain = Self.plainValue(of: object.content) { return .plain(plain) }
            return .object(object)
        }
    }

    /// The plain value a scalar object holds (a string, number, data or date), or nil.
    static func plainValue(of content: ArchivedContent) -> PropertyListValue? {
        switch content {
        case .string(let s): .string(s)
        case .number(let n): n
        case .data(let d): .data(d)
        case .date(let d): .date(d)
        default: nil
        }
    }

    func side(_ value: ArchivedValue, in archive: KeyedArchive) -> PropertyListDifference.Side {
        side(node(value, in: archive), in: archive)
    }

    func side(_ node: Node, in archive: KeyedArchive) -> PropertyListDifference.Side {
        switch node {
        case .null: return .init(type: "nil", value: nil, summary: "")
        case .plain(let v): return .init(v)
        case .inlineArray(let elements): return .init(type: "array", value: nil, summary: "[\(elements.count) elements]")
        case .missing(let uid): return .init(type: "missing", value: nil, summary: "#\(uid), not an object")
        case .object(let object):
            let summary = archive.summary(of: object) ?? "(\(object.fields.count) field\(object.fields.count == 1 ? "" : "s"))"
            return .init(type: object.readableClassName, value: Self.plainValue(of: object.content), summary: summary)
        }
    }

    mutating func emit(_ change: PropertyListDifference.Change, old: PropertyListDifference.Side?, new: PropertyListDifference.Side?) {
        out.append(PropertyListDifference(path: path.joined(), change: change, old: old, new: new))
    }

    /// Runs `body` one step further down, at `step` (`.key`, `[3]`).
    mutating func at(_ step: String, _ body: (inout KeyedArchiveDiffWalk) -> Void) {
        path.append(step)
        body(&self)
        path.removeLast()
    }

    static func keyStep(_ key: String) -> String {
        key.contains(where: { $0 == "." || $0 == "[" || $0 == "]" || $0 == " " }) ? "[\(PropertyListPrettyPrinter.quoted(key))]" : key
    }

    static func fieldStep(_ key: String) -> String {
        key.contains(where: { $0 == "." || $0 == "[" || $0 == "]" || $0 == " " }) ? "[\(PropertyListPrettyPrinter.quoted(key))]" : "." + key
    }

    /// Plain values compared as plists, their inner paths in this walk's style.
    mutating func comparePlain(_ a: PropertyListValue, _ b: PropertyListValue) {
        var (a, b) = (a, b)
        // Bookmark data on both sides is compared field by field (`.path`, `.volume.name`…),
        // not as bytes: what moved is what a reader wants to see.
        if case .data(let d) = a, case .data(let e) = b, d != e, let x = Self.bookmarkFields(d), let y = Self.bookmarkFields(e) {
            (a, b) = (x, y)
        }
        let prefix = path.joined()
        PropertyListDiff(arraysAsSets: arraysAsSets).compare(a, b, path: [], into: &out) { steps in
            steps.reduce(prefix) { text, step in
                switch step {
                case .key(let k): text + Self.fieldStep(k)
                case .index(let i): text + "[\(i)]"
                }
            }
        }
    }

    /// The fields of bookmark data or an alias record, or nil for other data.
    static func bookmarkFields(_ data: Data) -> PropertyListValue? {
        if Bookmark.isBookmark(data), let bookmark = try? Bookmark(data: data) { return BookmarkPropertyList.value(of: bookmark) }
        if data.first == 0, AliasRecord.isAliasRecord(data), let alias = try? AliasRecord(data: data) { return BookmarkPropertyList.value(of: alias) }
        return nil
    }

    mutating func compare(_ a: ArchivedValue, _ b: ArchivedValue) {
        let (x, y) = (node(a, in: old), node(b, in: new))
        switch (x, y) {
        case (.null, .null):
            return
        case (.plain(let u), .plain(let v)):
            comparePlain(u, v)
        case (.inlineArray(let xs), .inlineArray(let ys)):
            compareElements(xs, ys)
        case (.object(let p), .object(let q)):
            compareObjects(p, q)
        case (.missing(let i), .missing(let j)) where i == j:
            return
        default:
            emit(.typeChanged, old: side(x, in: old), new: side(y, in: new))
        }
    }

    mutating func compareObjects(_ p: ArchivedObject, _ q: ArchivedObject) {
        guard visited.insert(Pair(old: p.uid, new: q.uid)).inserted else { return }
        if p.className != q.className {
            emit(.typeChanged, old: side(.object(p), in: old), new: side(.object(q), in: new))
        }
        switch (p.content, q.content) {
        case (.string(let s), .string(let t)): comparePlain(.string(s), .string(t))
        case (.number(let m), .number(let n)): comparePlain(m, n)
        case (.data(let d), .data(let e)): comparePlain(.data(d), .data(e))
        case (.date(let d), .date(let e)): comparePlain(.date(d), .date(e))
        case (.null, .null): return
        case (.decimalNumber, .decimalNumber), (.uuid, .uuid), (.locale, .locale), (.timeZone, .timeZone),
             (.indexSet, .indexSet), (.geometry, .geometry):
            if p.content != q.content { emit(.changed, old: side(.object(p), in: old), new: side(.object(q), in: new)) }
        case (.array(let xs), .array(let ys)), (.orderedSet(let xs), .orderedSet(let ys)), (.oldStyleArray(let xs), .oldStyleArray(let ys)):
            compareElements(xs, ys)
        case (.set(let xs), .set(let ys)):
            compareMembers(xs.map { ($0, 1) }, ys.map { ($0, 1) })
        case (.countedSet(let xs, let cx), .countedSet(let ys, let cy)):
            compareMembers(Array(zip(xs, cx)), Array(zip(ys, cy)))
        case (.dictionary(let k1, let v1), .dictionary(let k2, let v2)):
            compareEntries(keys: k1, values: v1, keys: k2, values: v2)
        case (.url(let b1, let r1), .url(let b2, let r2)):
            at(".relative") { $0.compare(r1, r2) }
            at(".base") { $0.compare(b1, b2) }
        case (.attributedString(let s1, let a1, let r1), .attributedString(let s2, let a2, let r2)):
            at(".string") { $0.compare(s1, s2) }
            at(".attributes") { $0.compareElements(a1, a2) }
            if r1 != r2 {
                at(".ranges") {
                    $0.emit(.changed, old: .init(type: "ranges", value: nil, summary: Self.rangesText(r1)),
                            new: .init(type: "ranges", value: nil, summary: Self.rangesText(r2)))
                }
            }
        case (.error(let d1, let c1, let u1), .error(let d2, let c2, let u2)):
            at(".domain") { $0.comparePlain(.string(d1), .string(d2)) }
            at(".code") { $0.comparePlain(.integer(PropertyListInteger(c1)), .integer(PropertyListInteger(c2))) }
            at(".userInfo") { $0.compare(u1, u2) }
        case (.color(let c1), .color(let c2)):
            comparePlain(Self.colorValue(c1), Self.colorValue(c2))
        default:
            // Objects Archivist reads no meaning into, or two objects read differently: fields.
            compareFields(p, q)
        }
    }

    mutating func compareFields(_ p: ArchivedObject, _ q: ArchivedObject) {
        var theirs: [String: ArchivedValue] = [:]
        for field in q.fields where theirs[field.key] == nil { theirs[field.key] = field.value }
        var seen: Set<String> = []
        for field in p.fields where seen.insert(field.key).inserted {
            at(Self.fieldStep(field.key)) { walk in
                if let counterpart = theirs[field.key] {
                    walk.compare(field.value, counterpart)
                } else {
                    walk.emit(.removed, old: walk.side(field.value, in: walk.old), new: nil)
                }
            }
        }
        for field in q.fields where seen.insert(field.key).inserted {
            at(Self.fieldStep(field.key)) { walk in
                walk.emit(.added, old: nil, new: walk.side(field.value, in: walk.new))
            }
        }
    }

    mutating func compareElements(_ xs: [ArchivedValue], _ ys: [ArchivedValue]) {
        if arraysAsSets, let plainX = plainValues(xs, in: old), let plainY = plainValues(ys, in: new) {
            comparePlain(.array(plainX), .array(plainY))
            return
        }
        for i in 0..<min(xs.count, ys.count) {
            at("[\(i)]") { $0.compare(xs[i], ys[i]) }
        }
        for i in ys.count..<max(xs.count, ys.count) where i < xs.count {
            at("[\(i)]") { $0.emit(.removed, old: $0.side(xs[i], in: $0.old), new: nil) }
        }
        for i in xs.count..<max(xs.count, ys.count) where i < ys.count {
            at("[\(i)]") { $0.emit(.added, old: nil, new: $0.side(ys[i], in: $0.new)) }
        }
    }

    /// The plain values of `values`, or nil when one of them is an object.
    func plainValues(_ values: [ArchivedValue], in archive: KeyedArchive) -> [PropertyListValue]? {
        var out: [PropertyListValue] = []
        out.reserveCapacity(values.count)
        for v in values {
            guard case .plain(let p) = node(v, in: archive) else { return nil }
            out.append(p)
        }
        return out
    }

    /// Members of sets: each old member pairs with an equal new one (same count for counted
    /// sets), whatever their order; the rest are removed and added.
    mutating func compareMembers(_ xs: [(ArchivedValue, Int)], _ ys: [(ArchivedValue, Int)]) {
        var unmatched = Array(ys.indices)
        var removed: [Int] = []
        for (i, (x, count)) in xs.enumerated() {
            if let k = unmatched.firstIndex(where: { ys[$0].1 == count && equivalent(x, ys[$0].0) }) {
                unmatched.remove(at: k)
            } else {
                removed.append(i)
            }
        }
        for i in removed {
            at("[\(i)]") { $0.emit(.removed, old: $0.side(xs[i].0, in: $0.old), new: nil) }
        }
        for j in unmatched {
            at("[\(j)]") { $0.emit(.added, old: nil, new: $0.side(ys[j].0, in: $0.new)) }
        }
    }

    /// Whether two values hold the same graph: a comparison of their own that finds nothing.
    func equivalent(_ x: ArchivedValue, _ y: ArchivedValue) -> Bool {
        var probe = KeyedArchiveDiffWalk(old: old, new: new, arraysAsSets: arraysAsSets)
        probe.compare(x, y)
        return probe.out.isEmpty
    }

    /// Dictionary entries paired by key: a key is its plain value (a string, usually), or, for a
    /// key that is an object, found by an equivalent object.
    mutating func compareEntries(keys k1: [ArchivedValue], values v1: [ArchivedValue], keys k2: [ArchivedValue], values v2: [ArchivedValue]) {
        var byPlainKey: [PropertyListValue: Int] = [:]
        var objectKeys: [Int] = []
        for (j, k) in k2.enumerated() {
            if case .plain(let p) = node(k, in: new) { byPlainKey[p] = j } else { objectKeys.append(j) }
        }
        var matched: Set<Int> = []
        for (i, k) in k1.enumerated() {
            let keyNode = node(k, in: old)
            var j: Int?
            if case .plain(let p) = keyNode {
                j = byPlainKey[p]
            } else {
                j = objectKeys.first { !matched.contains($0) && equivalent(k, k2[$0]) }
            }
            let step = entryStep(keyNode, in: old)
            if let j, matched.insert(j).inserted, i < v1.count, j < v2.count {
                at(step) { $0.compare(v1[i], v2[j]) }
            } else if i < v1.count {
                at(step) { $0.emit(.removed, old: $0.side(v1[i], in: $0.old), new: nil) }
            }
        }
        for (j, k) in k2.enumerated() where !matched.contains(j) && j < v2.count {
            at(entryStep(node(k, in: new), in: new)) { $0.emit(.added, old: nil, new: $0.side(v2[j], in: $0.new)) }
        }
    }

    func entryStep(_ key: Node, in archive: KeyedArchive) -> String {
        switch key {
        case .plain(.string(let s)): return Self.fieldStep(s)
        case .plain(let v): return "[\(PropertyListDifference.summary(of: v, limit: 40))]"
        default: return "[\(side(key, in: archive).summary)]"
        }
    }

    /// A color as the payload `unarchive` writes: components by name.
    static func colorValue(_ c: ArchivedColor) -> PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "red", value: .real(c.red))
        d.append(key: "green", value: .real(c.green))
        d.append(key: "blue", value: .real(c.blue))
        d.append(key: "alpha", value: .real(c.alpha))
        d.append(key: "space", value: .string(c.space.rawValue))
        if let white = c.white { d.append(key: "white", value: .real(white)) }
        if let name = c.name { d.append(key: "name", value: .string(name)) }
        return .dictionary(d)
    }

    static func rangesText(_ ranges: [Range<Int>]) -> String {
        "[" + ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") + "]"
    }
}
