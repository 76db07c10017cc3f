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
    /// - Throws: `PayloadError.cycle` naming the path around a cycle, `.noRoot` when `$top` names
    ///   no root.
    public func payload(of archive: KeyedArchive) throws(PayloadError) -> PropertyListValue {
        guard let root = archive.root else {
            let keys = archive.top.map(\.key).joined(separator: ", ")
            throw PayloadError(.noRoot, "the archive has no root object ($top has: \(keys.isEmpty ? "nothing" : keys)); choose one with --top")
        }
        var walk = Walk(archive: archive, options: options)
        return try walk.map(root, depth: 0) ?? .null
    }

    struct Walk {
        let archive: KeyedArchive
        let options: PayloadOptions
        /// The path from the root to the current value, rendered only for an error message.
        var components: [PathComponent] = [.text("root")]
        /// Objects on the way from the root to the current one, with where in the path each is.
        var ancestors: [Int: Int] = [:]
        var nestedDepth = 0

        enum PathComponent {
            case key(String)
            case index(Int)
            case text(String)
        }

        var null: PropertyListValue { options.target == .propertyList ? .string("$null") : .null }

        func rendered(_ count: Int? = nil) -> String {
            components.prefix(count ?? components.count).reduce(into: "") { out, c in
                switch c {
                case .key(let k): out += "." + k
                case .index(let i): out += "[\(i)]"
                case .text(let t): out += t
                }
            }
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
            switch value {
            case .null: return nil
            case .inline(let v): return inline(v)
            case .array(let elements):
                return try self.elements(elements, depth: depth)
            case .object(let uid):
                guard let object = archive.object(value) else { return nil }
                if let start = ancestors[uid] {
                    throw PayloadError(.cycle, "cycle: \(rendered()) refers back to \(rendered(start)) (object #\(uid)); a payload cannot hold a loop")
                }
                ancestors[uid] = components.count
                defer { ancestors[uid] = nil }
                return try map(object, depth: depth)
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
            case .data(let d): return try expanded(d, depth: depth) ?? .data(d)
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
            case .uuid(let u): return .string(u.uuidString)
            case .attributedString(let string, _, _):
                return try map(string, at: .key("NSString"), depth: depth + 1) ?? .string("")
            case .geometry(let g): return Self.geometry(g)
            case .indexSet(let ranges):
                return .array(ranges.map { .array([.integer(PropertyListInteger($0.lowerBound)), .integer(PropertyListInteger($0.count))]) })
            case .locale(let identifier), .timeZone(let identifier):
                return .dictionary(PropertyListDictionary([(.string("identifier"), .string(identifier))]))
            case .error(let domain, let code, let userInfo):
                var d = PropertyListDictionary()
                d.append(key: "domain", value: .string(domain))
                d.append(key: "code", value: .integer(PropertyListInteger(code)))
                if let info = try map(userInfo, at: .key("NSUserInfo"), depth: depth + 1) { d.append(key: "userInfo", value: info) }
                return .dictionary(d)
            case .color(let c): return Self.color(c)
            case .object:
                var d = PropertyListDictionary()
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
            var mappedKeys: [PropertyListValue] = []
            var mappedValues: [PropertyListValue] = []
            for (i, (k, v)) in zip(keys, values).enumerated() {
                mappedKeys.append(try map(k, at: .text(".NS.keys[\(i)]"), depth: depth + 1) ?? null)
                let step: PathComponent = if let key = mappedKeys.last?.stringValue { .key(key) } else { .index(i) }
                mappedValues.append(try map(v, at: step, depth: depth + 1) ?? null)
            }
            if mappedKeys.allSatisfy({ $0.stringValue != nil }) {
                var d = PropertyListDictionary()
                for (k, v) in zip(mappedKeys, mappedValues) where !((options.target == .propertyList) && v == null) {
                    d.append(key: k, value: v)
                }
                return .dictionary(d)
            }
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

        /// NSData holding JSON, a property list or a keyed archive, decoded in place.
        mutating func expanded(_ data: Data, depth: Int) throws(PayloadError) -> PropertyListValue? {
            guard options.expandsNestedPayloads, nestedDepth < 8, let kind = NestedPayload.identify(data) else { return nil }
            switch kind {
            case .json:
                return try? JSONPropertyListReader().read(data)
            case .propertyList:
                return try? PropertyListReader().read(data).value
            case .keyedArchive:
                guard let nested = try? KeyedArchive(data: data) else { return nil }
                var inner = Walk(archive: nested, options: options)
                inner.nestedDepth = nestedDepth + 1
                inner.components = [.text(rendered() + "<archive>.root")]
                guard let root = nested.root else { return nil }
                return try inner.map(root, depth: depth + 1)
            default:
                return nil
            }
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
            if Double(f) == v, let shorter = Double(String(f)) { return .real(shorter) }
            return .real(v)
        }

        static func color(_ c: ArchivedColor) -> PropertyListValue {
            var d = PropertyListDictionary()
            d.append(key: "red", value: component(c.red))
            d.append(key: "green", value: component(c.green))
            d.append(key: "blue", value: component(c.blue))
            d.append(key: "alpha", value: component(c.alpha))
            if c.space != .sRGB { d.append(key: "colorSpace", value: .string(c.space.rawValue)) }
            return .dictionary(d)
        }
    }
}
