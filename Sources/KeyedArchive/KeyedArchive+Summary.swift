import Bookmark
import Foundation
import PropertyList

/// One-line descriptions of archived objects, shared by the tree, JSON and Graphviz renderers
/// so that all three say the same thing about an object.
extension KeyedArchive {
    /// A one-line summary of what an object holds: a quoted string, a number, an ISO 8601
    /// date, a data length with its nested payload, an absolute URL, a color, a count of
    /// elements… Nil for a generic object, whose fields say it all.
    public func summary(of object: ArchivedObject, nestedReadOptions: PropertyListReadOptions = .default) -> String? {
        switch object.content {
        case .string(let s): return PropertyListPrettyPrinter.quoted(s)
        case .number(let n): return Self.numberText(n)
        case .decimalNumber(let text): return text
        case .data(let data): return Self.dataSummary(data, options: nestedReadOptions)
        case .date(let date): return Self.isoText(date)
        case .null: return nil
        case .array(let elements), .oldStyleArray(let elements): return Self.count(elements.count, "element")
        case .set(let members), .orderedSet(let members): return Self.count(members.count, "member")
        case .countedSet(let members, let counts):
            return "\(Self.count(members.count, "member")), \(Self.count(counts.reduce(0) { $0 &+ $1 }, "object"))"
        case .dictionary(let keys, _): return Self.count(keys.count, "entry", plural: "entries")
        case .url: return absoluteURLString(of: object) ?? "(unresolvable URL)"
        case .uuid(let uuid): return uuid.uppercaseText
        case .attributedString(let string, _, let ranges):
            let text = self.string(string).map(PropertyListPrettyPrinter.quoted) ?? "(no string)"
            return "\(text), \(Self.count(ranges.count, "run"))"
        case .geometry(let geometry): return Self.geometryText(geometry)
        case .indexSet(let ranges): return Self.indexSetText(ranges)
        case .locale(let identifier): return "locale \(identifier)"
        case .timeZone(let name): return "time zone \(name)"
        case .error(let domain, let code, _): return "\(domain) code \(code)"
        case .color(let color): return Self.colorText(color)
        case .object: return nil
        }
    }

    /// A string held inline or by a string object; nil for anything else.
    public func string(_ value: ArchivedValue) -> String? {
        switch value {
        case .inline(.string(let s)): return s
        case .object(let uid) where uid < objects.count:
            // Read in place: copying the object out would retain and release its fields.
            return objects.withUnsafeBufferPointer { objects in
                if case .string(let s)? = objects[uid]?.content { return s }
                return nil
            }
        default: return nil
        }
    }

    /// An NSURL's absolute form: its relative string resolved against its chain of bases
    /// (`NS.base`), as `NSURL.absoluteString` would give it. Nil when a part is missing.
    ///
    /// The chain is followed iteratively and stops at a cycle, so a hostile archive whose base
    /// refers back to the URL itself ends the walk instead of looping.
    public func absoluteURLString(of object: ArchivedObject) -> String? {
        // A URL without a base is its relative string.
        if case .url(.null, let relative) = object.content { return string(relative) }
        var relatives: [String] = []
        var seen: Set<Int> = []
        var current: ArchivedObject? = object
        while let url = current, case .url(let base, let relative) = url.content, seen.insert(url.uid).inserted {
            guard let text = string(relative) else { return nil }
            relatives.append(text)
            current = self.object(base)
        }
        // Resolve from the outermost base inwards.
        guard var resolved = relatives.popLast() else { return nil }
        while let relative = relatives.popLast() {
            guard let base = URL(string: resolved), let url = URL(string: relative, relativeTo: base) else {
                return nil
            }
            resolved = url.absoluteString
        }
        return resolved
    }

    // MARK: Formatting

    package static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// Integers in full, reals in their shortest form, bools as `true`/`false`.
    package static func numberText(_ value: PropertyListValue) -> String {
        switch value {
        case .integer(let i): i.description
        case .real(let r): PropertyListPrettyPrinter.realText(r)
        case .bool(let b): b ? "true" : "false"
        default: value.typeName
        }
    }

    /// `2001-01-01T00:00:00Z`, with a fraction of a second when there is one.
    package static func isoText(_ date: Date) -> String {
        let t = date.timeIntervalSinceReferenceDate
        // Years 0000 to 9999, the range ISO 8601 spells in four digits.
        guard PropertyListDateRange.contains(t) else { return "<date \(t)>" }
        let text = GregorianDateTime(secondsSinceReferenceDate: t).iso8601
        return text.dropLast() + GregorianDateTime.fractionText(ofSeconds: t) + "Z"
    }

    /// `1234 bytes, PNG image 64×64`; the first bytes in hex when the payload is unknown.
    package static func dataSummary(_ data: Data, options: PropertyListReadOptions) -> String {
        dataSummary(data, payload: NestedPayload.identify(data, options: options))
    }

    package static func dataSummary(_ data: Data, payload: NestedPayload?) -> String {
        let size = count(data.count, "byte")
        // Bookmark data says where it points, the one thing a reader wants of it at a glance.
        if let payload, payload == .bookmark, let path = (try? Bookmark(data: data))?.fields.path { return "\(size), \(payload) \(path)" }
        if let payload, payload == .aliasRecord, let alias = try? AliasRecord(data: data) {
            return "\(size), \(payload) \(alias.posixPath ?? alias.fileName)"
        }
        if let payload { return "\(size), \(payload)" }
        guard !data.isEmpty else { return size }
        let shown = HexText.lowercase(data.prefix(16))
        return "\(size) <\(shown)\(data.count > 16 ? "…" : "")>"
    }

    /// Components rounded to 4 places, so float32 noise (0.17599999904632568) reads as 0.176.
    static func componentText(_ c: Double) -> String {
        guard c.isFinite else { return PropertyListPrettyPrinter.realText(c) }
        return PropertyListPrettyPrinter.realText((c * 10_000).rounded() / 10_000)
    }

    /// `rgba(0.176, 0.165, 0.51, 1) sRGB`, or the catalog name of a named color.
    static func colorText(_ color: ArchivedColor) -> String {
        if color.space == .named, let name = color.name { return "named color \(name)" }
        let parts = [color.red, color.green, color.blue, color.alpha].map(componentText).joined(separator: ", ")
        var text = "rgba(\(parts)) \(color.space.rawValue)"
        if let white = color.white { text += " white \(componentText(white))" }
        return text
    }

    /// The way NSStringFromPoint, NSStringFromRect and NSStringFromRange write them.
    static func geometryText(_ geometry: ArchivedGeometry) -> String {
        let n = PropertyListPrettyPrinter.realText
        switch geometry {
        case .point(let x, let y): return "point {\(n(x)), \(n(y))}"
        case .size(let w, let h): return "size {\(n(w)), \(n(h))}"
        case .rect(let x, let y, let w, let h): return "rect {{\(n(x)), \(n(y))}, {\(n(w)), \(n(h))}}"
        case .range(let location, let length): return "range {\(location), \(length)}"
        case .edgeInsets(let top, let left, let bottom, let right):
            return "edge insets {\(n(top)), \(n(left)), \(n(bottom)), \(n(right))}"
        }
    }

    /// `3 indexes: 0..<2, 5`; long sets are cut after 16 ranges.
    static func indexSetText(_ ranges: [Range<Int>]) -> String {
        let total = ranges.reduce(0) { $0 &+ $1.count }
        guard !ranges.isEmpty else { return "0 indexes" }
        var parts = ranges.prefix(16).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)..<\($0.upperBound)" }
        if ranges.count > 16 { parts.append("…") }
        return "\(count(total, "index", plural: "indexes")): \(parts.joined(separator: ", "))"
    }
}
