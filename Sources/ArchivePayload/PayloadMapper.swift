import Bookmark
import Foundation
import KeyedArchive
import PropertyList

/// Turns an archive's root object into a plain payload that `JSONDecoder` or
/// `PropertyListDecoder` decodes straight into a Codable type.
///
/// The mapping, class by class:
/// - arrays, sets, ordered sets and old-style arrays become arrays (a counted set lists each
///   member once);
/// - dictionaries with string keys become dictionaries; integer keys become their decimal
///   strings and any other keys a flat `[key, value, …]` array, as Codable writes them;
/// - strings, numbers and bools stay; NSNull becomes null (or PropertyListEncoder's `"$null"`);
/// - dates and data stay native, for the writer's strategies to spell;
/// - NSURL becomes its absolute string (for PropertyListDecoder, URL's Codable
///   `{"relative": …}`), NSUUID its `uuidString`, NSDecimalNumber a number;
/// - UIColor and NSColor become `{"red", "green", "blue", "alpha"}`, plus `"colorSpace"` when it
///   is not sRGB;
/// - NSValue geometry takes the Codable shape of CGPoint (`[x, y]`), CGSize, CGRect
///   (`[[x, y], [w, h]]`), NSRange (`[location, length]`) or edge insets;
/// - NSAttributedString becomes its string; NSLocale and NSTimeZone `{"identifier"}`; NSError
///   `{"domain", "code", "userInfo"}`; NSIndexSet an array of `[location, length]` ranges;
/// - any other class becomes a dictionary of its decoded fields.
public struct PayloadMapper: Sendable {
    public var options: PayloadOptions

    public init(options: PayloadOptions = PayloadOptions()) {
        self.options = options
    }

    /// The payload of the archive's root object.
    ///
    /// - Throws: `PayloadError.cycle` naming the path around a cycle (unless
    ///   `PayloadOptions.breaksCycles`), `.noRoot` when `$top` names no root.
    public func payload(of archive: KeyedArchive) throws(PayloadError) -> PropertyListValue {
        var walk = try Walk(rootOf: archive, options: options)
        return try walk.mapRoot()
    }

    /// The part of the payload at `path` (`.unbox`), or nil when the payload has nothing there.
    /// References that break cycles (`PayloadOptions.breaksCycles`) point within the part, as
    /// if it were the whole payload.
    ///
    /// - Throws: as `payload(of:)`, and `PayloadError.cycle` when the part holds a reference to
    ///   an object outside it (one it is inside), which no pointer into the part can reach.
    public func payload(of archive: KeyedArchive, at path: PayloadPath) throws(PayloadError) -> PropertyListValue? {
        var walk = try Walk(rootOf: archive, options: options)
        let whole = try walk.mapRoot()
        guard let tokens = path.tokens(in: whole), var part = path.value(in: whole) else { return nil }
        for reference in walk.references where reference.at.starts(with: tokens) {
            guard reference.target.starts(with: tokens) else {
                throw PayloadError(.cycle, "cycle: the part at \(path) holds a reference back to \(PayloadReference.fragment(reference.target)), outside it; select a part that holds both ends")
            }
            let relative = PayloadReference.object(to: Array(reference.target.dropFirst(tokens.count)))
            let place = PropertyListKeyPath(components: Array(reference.at.dropFirst(tokens.count)))
            if place.components.isEmpty {
                part = relative
            } else {
                try? part.edit(relative, at: place, mode: .replace)
            }
        }
        return part
    }

    struct Walk {
        let archive: KeyedArchive
        let options: PayloadOptions
        /// The path from the root to the current value, rendered only for an error message.
        var components: [PathComponent] = [.text("root")]
        /// Objects on the way from the root to the current one, with where in the path each is
        /// (-1 for the others), by UID.
        var ancestors: [Int32]
        var nestedDepth = 0
        /// The keys of the last dictionary mapped, whose array the next one reuses when equal.
        var lastKeys: [PropertyListValue] = []
        /// The archived keys `lastKeys` were mapped from, when every one became a string: the
        /// decoder gives dictionaries of one shape one `NS.keys` array, whose keys then need
        /// no mapping again.
        var lastArchivedKeys: [ArchivedValue]?
        /// Values produced so far, an object counted at every place it appears.
        var produced = 0
        /// Nested payloads already decoded, by the UID of their data object, with their value count.
        var nestedPayloads: [Int: (value: PropertyListValue?, count: Int)] = [:]

        /// The JSON Pointer tokens of where this walk's payload goes in the whole payload (a
        /// nested archive's place in the outer one); empty for the root's.
        var pointerBase: [String] = []
        /// With `breaksCycles`, each reference written: where it is and where it points, as
        /// JSON Pointer tokens from the payload's root.
        var references: [(at: [String], target: [String])] = []

        init(archive: KeyedArchive, options: PayloadOptions) {
            self.archive = archive
            self.options = options
            ancestors = Array(repeating: -1, count: archive.objects.count)
        }

        /// A walk from the archive's root object.
        ///
        /// - Throws: `.noRoot` when `$top` names no root.
        init(rootOf archive: KeyedArchive, options: PayloadOptions) throws(PayloadError) {
            guard archive.root != nil else {
                let keys = archive.top.map(\.key).joined(separator: ", ")
                throw PayloadError(.noRoot, "the archive has no root object ($top has: \(keys.isEmpty ? "nothing" : keys))")
            }
            self.init(archive: archive, options: options)
        }

        /// The payload of the root object.
        mutating func mapRoot() throws(PayloadError) -> PropertyListValue {
            guard let root = archive.root else { return .null }
            return try map(root, depth: 0) ?? .null
        }

        enum PathComponent {
            case key(String)
            case index(Int)
            case text(String)
            /// `.NS.keys[i]`, the path to a dictionary's key, rendered only when needed.
            case dictionaryKey(Int)
            /// A field read under one key and written under another (`written`), or in its
            /// object's place (nil): NSError's `NSUserInfo` is `userInfo`.
            case field(archived: String, written: String?)
        }

        /// The JSON Pointer tokens of `components` (the payload keys and indexes they are at).
        /// A dictionary's key is only ever gone into in the flat `[key, value, …]` form (a
        /// key that is a container), where key `i` is element `2i`.
        static func tokens(_ components: ArraySlice<PathComponent>) -> [String] {
            components.compactMap { c in
                switch c {
                case .text: nil
                case .key(let k): k
                case .index(let i): String(i)
                case .dictionaryKey(let i): String(2 * i)
                case .field(_, let written): written
                }
            }
        }

        var null: PropertyListValue { options.target == .propertyList ? .string("$null") : .null }

        /// A deep path shows its first component and its last ten around a count of the rest,
        /// keys cut to 100 characters, so that an error message stays a line.
        func rendered(_ count: Int? = nil) -> String {
            let shown = components.prefix(count ?? components.count)
            func text(_ c: PathComponent) -> String {
                switch c {
                case .key(let k): "." + (k.utf8.count <= 100 || k.count <= 100 ? k : String(k.prefix(100)) + "…")
                case .index(let i): "[\(i)]"
                case .text(let t): t
                case .dictionaryKey(let i): ".NS.keys[\(i)]"
                case .field(let k, _): "." + k
                }
            }
            guard shown.count > 11, let first = shown.first else { return shown.map(text).joined() }
            return text(first) + "…(\(shown.count - 11) more)…" + shown.suffix(10).map(text).joined()
        }

        /// The payload of `value` one step further down the path.
        mutating func map(_ value: ArchivedValue, at step: PathComponent, depth: Int) throws(PayloadError) -> PropertyListValue? {
            components.append(step)
            defer { components.removeLast() }
            return try map(value, depth: depth)
        }

        /// The payload of a value; nil means "absent" (a nil field left out of a dictionary).
        mutating func map(_ value: ArchivedValue, depth: Int) throws(PayloadError) -> PropertyListValue? {
            guard depth <= options.maximumDepth else {
                throw PayloadError(.tooDeep, "objects nest deeper than \(options.maximumDepth) at \(rendered())")
            }
            try count(1)
            switch value {
            case .null: return nil
            case .inline(let v):
                // An inline collection may share subtrees in the property list: count what it expands to.
                // (The collection itself was counted above, hence the one less and the one more.)
                if v.isCollection { try count(Self.valueCount(v, upTo: options.maximumValueCount - produced + 2) - 1) }
                return inline(v)
            case .array(let elements):
                return try self.elements(elements, depth: depth)
            case .object(let uid):
                guard uid < archive.objects.count else { return nil }
                // The most common contents are read without copying the object out. Strings,
                // numbers and dates hold no references: no cycle can pass through them, so they
                // are not tracked either.
                let content: ArchivedContent? = archive.objects.withUnsafeBufferPointer { $0[uid]?.content }
                switch content {
                case nil: return nil
                case .string(let s)?: return .string(s)
                case .number(let n)?: return n
                case .date(let d)?: return .date(d)
                case .array(let a)?:
                    if let reference = try enter(uid) { return reference }
                    defer { ancestors[uid] = -1 }
                    return try elements(a, depth: depth)
                case .dictionary(let keys, let values)?:
                    if let reference = try enter(uid) { return reference }
                    defer { ancestors[uid] = -1 }
                    return try dictionary(keys: keys, values: values, depth: depth)
                default:
                    guard let object = archive.object(value) else { return nil }
                    if let reference = try enter(uid) { return reference }
                    defer { ancestors[uid] = -1 }
                    return try map(object, depth: depth)
                }
            }
        }

        /// Marks object `uid` (an index of `objects`) as on the way to the current value.
        ///
        /// - Returns: nil; or, when the object already is on the way (a cycle) and
        ///   `breaksCycles`, the reference to write in its place, the object not entered.
        /// - Throws: `PayloadError.cycle` for a cycle otherwise.
        mutating func enter(_ uid: Int) throws(PayloadError) -> PropertyListValue? {
            let start = Int(ancestors[uid])
            if start >= 0 {
                guard options.breaksCycles else {
                    throw PayloadError(.cycle, "cycle: \(rendered()) refers back to \(rendered(start)) (object #\(uid)); a payload cannot hold a loop")
                }
                return reference(to: start)
            }
            ancestors[uid] = Int32(truncatingIfNeeded: components.count)
            return nil
        }

        /// The reference to the value at the first `count` components, written at the current one.
        mutating func reference(to count: Int) -> PropertyListValue {
            let target = pointerBase + Self.tokens(components.prefix(count))
            references.append((at: pointerBase + Self.tokens(components[...]), target: target))
            return PayloadReference.object(to: target)
        }

        /// Counts `n` more values against `maximumValueCount`.
        mutating func count(_ n: Int) throws(PayloadError) {
            produced += n
            guard produced <= options.maximumValueCount else {
                throw PayloadError(.tooLarge, "the payload holds more than \(options.maximumValueCount) values at \(rendered()); an object the archive shares counts at every place it appears")
            }
        }

        func inline(_ v: PropertyListValue) -> PropertyListValue {
            switch v {
            case .uid: return null
            case .null: return null
            default: return v
            }
        }

        mutating func elements(_ values: [ArchivedValue], depth: Int) throws(PayloadError) -> PropertyListValue {
            var out: [PropertyListValue] = []
            out.reserveCapacity(values.count)
            for (i, e) in values.enumerated() { out.append(try map(e, at: .index(i), depth: depth + 1) ?? null) }
            return .array(out)
        }

        mutating func map(_ object: ArchivedObject, depth: Int) throws(PayloadError) -> PropertyListValue? {
            switch object.content {
            case .string(let s): return .string(s)
            case .number(let n): return n
            case .decimalNumber(let text): return Self.number(fromDecimal: text)
            case .data(let d): return try expanded(d, uid: object.uid, depth: depth) ?? .data(d)
            case .date(let d): return .date(d)
            case .null: return null
            case .array(let a), .set(let a), .orderedSet(let a), .oldStyleArray(let a), .countedSet(let a, _):
                return try elements(a, depth: depth)
            case .dictionary(let keys, let values):
                return try dictionary(keys: keys, values: values, depth: depth)
            case .url:
                let absolute = PropertyListValue.string(archive.absoluteURLString(of: object) ?? "")
                guard options.target == .propertyList else { return absolute }
                return .dictionary(PropertyListDictionary([(.string("relative"), absolute)]))
            case .uuid(let u): return .string(u.uppercaseText)
            case .attributedString(let string, _, _):
                return try map(string, at: .field(archived: "NSString", written: nil), depth: depth + 1) ?? .string("")
            case .geometry(let g): return Self.geometry(g)
            case .indexSet(let ranges):
                return .array(ranges.map { .array([.integer(PropertyListInteger($0.lowerBound)), .integer(PropertyListInteger($0.count))]) })
            case .locale(let identifier), .timeZone(let identifier):
                return .dictionary(PropertyListDictionary([(.string("identifier"), .string(identifier))]))
            case .error(let domain, let code, let userInfo):
                var d = PropertyListDictionary()
                d.append(key: "domain", value: .string(domain))
                d.append(key: "code", value: .integer(PropertyListInteger(code)))
                if let info = try map(userInfo, at: .field(archived: "NSUserInfo", written: "userInfo"), depth: depth + 1) { d.append(key: "userInfo", value: info) }
                return .dictionary(d)
            case .color(let c): return Self.color(c)
            case .object:
                var d = PropertyListDictionary()
                d.reserveCapacity(object.fields.count + 1)
                if options.keepsClassNames { d.append(key: "$class", value: .string(object.readableClassName)) }
                for field in object.fields {
                    let mapped = try map(field.value, at: .key(field.key), depth: depth + 1)
                    if let mapped {
                        d.append(key: .string(field.key), value: mapped)
                    } else if !(options.target == .propertyList) {
                        d.append(key: .string(field.key), value: .null)
                    }
                }
                return .dictionary(d)
            }
        }

        mutating func dictionary(keys: [ArchivedValue], values: [ArchivedValue], depth: Int) throws(PayloadError) -> PropertyListValue {
            if options.breaksCycles { return try dictionaryKeepingPlaces(keys: keys, values: values, depth: depth) }
            var mappedKeys: [PropertyListValue] = []
            var mappedValues: [PropertyListValue] = []
            let count = min(keys.count, values.count)
            mappedKeys.reserveCapacity(count)
            mappedValues.reserveCapacity(count)
            var allStrings = true
            // The same archived keys as the last dictionary's, all strings, mapped again would
            // give the same strings: take those, still counting each key where it is.
            let reusesKeys = depth + 1 <= options.maximumDepth && lastKeys.count == count
                && lastArchivedKeys.map { Self.sameStorage($0, keys) } == true
            for i in 0..<count {
                let key: PropertyListValue
                if reusesKeys {
                    components.append(.dictionaryKey(i))
                    try self.count(1)
                    components.removeLast()
                    key = lastKeys[i]
                } else {
                    key = try map(keys[i], at: .dictionaryKey(i), depth: depth + 1) ?? null
                }
                mappedKeys.append(key)
                let step: PathComponent
                if case .string(let name) = key {
                    step = .key(name)
                } else {
                    step = .index(i)
                    allStrings = false
                }
                mappedValues.append(try map(values[i], at: step, depth: depth + 1) ?? null)
            }
            if allStrings, options.target != .propertyList {
                // Every entry is kept: the mapped arrays are the dictionary. Dictionaries of one
                // shape (an array of records) share one keys array.
                if reusesKeys {
                    mappedKeys = lastKeys
                } else if mappedKeys == lastKeys {
                    mappedKeys = lastKeys
                    lastArchivedKeys = plainStrings(keys) ? keys : nil
                } else {
                    lastKeys = mappedKeys
                    lastArchivedKeys = plainStrings(keys) ? keys : nil
                }
                return .dictionary(PropertyListDictionary(keys: mappedKeys, values: mappedValues))
            }
            if allStrings {
                var d = PropertyListDictionary()
                d.reserveCapacity(count)
                for (k, v) in zip(mappedKeys, mappedValues) where !((options.target == .propertyList) && v == null) {
                    d.append(key: k, value: v)
                }
                return .dictionary(d)
            }
            return Self.codableDictionary(mappedKeys, mappedValues)
        }

        /// `dictionary` with each value's path its place in the payload, for references to point
        /// at: the keys are mapped first, so that the shape the dictionary takes (string keys,
        /// integer keys written as strings, or a flat `[key, value, …]` array) is known before
        /// its values are.
        mutating func dictionaryKeepingPlaces(keys: [ArchivedValue], values: [ArchivedValue], depth: Int) throws(PayloadError) -> PropertyListValue {
            let count = min(keys.count, values.count)
            var mappedKeys: [PropertyListValue] = []
            mappedKeys.reserveCapacity(count)
            for i in 0..<count { mappedKeys.append(try map(keys[i], at: .dictionaryKey(i), depth: depth + 1) ?? null) }
            var mappedValues: [PropertyListValue] = []
            mappedValues.reserveCapacity(count)
            for i in 0..<count {
                let step = Self.valueStep(i, keys: mappedKeys)
                mappedValues.append(try map(values[i], at: step, depth: depth + 1) ?? null)
            }
            guard mappedKeys.allSatisfy({ $0.stringValue != nil }) else { return Self.codableDictionary(mappedKeys, mappedValues) }
            var d = PropertyListDictionary()
            d.reserveCapacity(count)
            for (k, v) in zip(mappedKeys, mappedValues) where !((options.target == .propertyList) && v == null) {
                d.append(key: k, value: v)
            }
            return .dictionary(d)
        }

        /// Where value `i` of a dictionary with these mapped keys goes in the payload:
        /// under its key, its integer key's decimal string, or at `2i + 1` of the flat array.
        static func valueStep(_ i: Int, keys: [PropertyListValue]) -> PathComponent {
            if keys.allSatisfy({ $0.stringValue != nil }), let name = keys[i].stringValue { return .key(name) }
            if keys.allSatisfy({ $0.integerValue?.int64Value != nil }), let n = keys[i].integerValue { return .key(n.description) }
            return .index(2 * i + 1)
        }

        /// A dictionary whose keys are not all strings, as Codable writes it: integer keys as
        /// their decimal strings, any other keys as a flat `[key, value, key, value, …]` array.
        static func codableDictionary(_ mappedKeys: [PropertyListValue], _ mappedValues: [PropertyListValue]) -> PropertyListValue {
            if mappedKeys.allSatisfy({ $0.integerValue?.int64Value != nil }) {
                // Codable writes [Int: V] with the integers as string keys.
                var d = PropertyListDictionary()
                for (k, v) in zip(mappedKeys, mappedValues) { d.append(key: .string(k.integerValue?.description ?? ""), value: v) }
                return .dictionary(d)
            }
            // Codable writes other dictionaries as a flat [key, value, key, value, …] array.
            var flat: [PropertyListValue] = []
            for (k, v) in zip(mappedKeys, mappedValues) {
                flat.append(k)
                flat.append(v)
            }
            return .array(flat)
        }

        /// Whether every key is a string, inline or a string object: each maps to itself, as one
        /// value, touching nothing else.
        func plainStrings(_ keys: [ArchivedValue]) -> Bool {
            archive.objects.withUnsafeBufferPointer { objects in
                keys.allSatisfy { key in
                    switch key {
                    case .inline(.string): return true
                    case .object(let uid) where uid < objects.count:
                        if case .string? = objects[uid]?.content { return true }
                        return false
                    default: return false
                    }
                }
            }
        }

        /// Whether two arrays share one storage (the decoder's arrays for equal `NS.keys`).
        static func sameStorage(_ a: [ArchivedValue], _ b: [ArchivedValue]) -> Bool {
            a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
        }

        /// NSData holding JSON, a property list or a keyed archive, decoded in place.
        ///
        /// A data object referenced many times is decoded once; its values count at every use.
        mutating func expanded(_ data: Data, uid: Int, depth: Int) throws(PayloadError) -> PropertyListValue? {
            guard options.expandsNestedPayloads, nestedDepth < 8 else { return nil }
            if let known = nestedPayloads[uid] {
                try count(known.count)
                return known.value
            }
            let before = produced
            var value: PropertyListValue?
            var document: PropertyListValue?
            switch NestedPayload.identify(data) {
            case .json?:
                document = try? JSONPropertyListReader().read(data)
            case .propertyList?:
                document = try? PropertyListReader().read(data).value
            case .bookmark?:
                // A bookmark becomes the object of its fields (BookmarkPropertyList).
                document = (try? Bookmark(data: data)).map(BookmarkPropertyList.value(of:))
            case .aliasRecord?:
                document = (try? AliasRecord(data: data)).map(BookmarkPropertyList.value(of:))
            case .keyedArchive?, .typedStream?, .nibArchive?:
                guard let nested = try? KeyedArchive(data: data), let root = nested.root else { break }
                var inner = Walk(archive: nested, options: options)
                inner.nestedDepth = nestedDepth + 1
                inner.components = [.text(rendered() + "<archive>.root")]
                inner.produced = produced
                if options.breaksCycles { inner.pointerBase = pointerBase + Self.tokens(components[...]) }
                value = try inner.map(root, depth: depth + 1)
                produced = inner.produced
                // References point into this place: the value cannot be reused at another.
                if !inner.references.isEmpty {
                    references += inner.references
                    return value
                }
            default:
                break
            }
            if let document {
                // A JSON or property-list document may share subtrees: count what it expands to.
                try count(Self.valueCount(document, upTo: options.maximumValueCount - produced + 1))
                value = document
            }
            nestedPayloads[uid] = (value, produced - before)
            return value
        }

        /// The values in `value`, counted no further than `limit`.
        static func valueCount(_ value: PropertyListValue, upTo limit: Int) -> Int {
            var count = 0
            var pending = [value]
            while count < limit, let v = pending.popLast() {
                count += 1
                switch v {
                case .array(let a), .set(let a): pending.append(contentsOf: a)
                case .dictionary(let d):
                    pending.append(contentsOf: d.keys)
                    pending.append(contentsOf: d.values)
                default: break
                }
            }
            return count
        }

        static func number(fromDecimal text: String) -> PropertyListValue {
            if let i = Int64(text) { return .integer(PropertyListInteger(i)) }
            return .real(Double(text) ?? .nan)
        }

        static func real(_ v: Double) -> PropertyListValue { .real(v) }

        static func geometry(_ g: ArchivedGeometry) -> PropertyListValue {
            switch g {
            case .point(let x, let y): return .array([real(x), real(y)])
            case .size(let w, let h): return .array([real(w), real(h)])
            case .rect(let x, let y, let w, let h): return .array([.array([real(x), real(y)]), .array([real(w), real(h)])])
            case .range(let location, let length):
                return .array([.integer(PropertyListInteger(location)), .integer(PropertyListInteger(length))])
            case .edgeInsets(let top, let left, let bottom, let right): return .array([real(top), real(left), real(bottom), real(right)])
            }
        }

        /// UIColor stores its components as float32: give each its shortest float32 spelling
        /// (0.176, not 0.17599999904632568), which decodes exactly into Float and CGFloat alike.
        static func component(_ v: Double) -> PropertyListValue {
            let f = Float(v)
            guard Double(f) == v else { return .real(v) }
            // The spelling read back as a double: without `strtod` when one operation is exact.
            var text = String(f)
            if let shorter = text.withUTF8({ DecimalText.double($0) }) ?? Double(text) { return .real(shorter) }
            return .real(v)
        }

        static let colorKeys: [PropertyListValue] = ["red", "green", "blue", "alpha"]
        static let colorKeysWithSpace: [PropertyListValue] = colorKeys + ["colorSpace"]

        static func color(_ c: ArchivedColor) -> PropertyListValue {
            var values: [PropertyListValue] = []
            values.reserveCapacity(5)
            values.append(component(c.red))
            values.append(component(c.green))
            values.append(component(c.blue))
            values.append(component(c.alpha))
            guard c.space != .sRGB else { return .dictionary(PropertyListDictionary(keys: colorKeys, values: values)) }
            values.append(.string(c.space.rawValue))
            return .dictionary(PropertyListDictionary(keys: colorKeysWithSpace, values: values))
        }
    }
}
