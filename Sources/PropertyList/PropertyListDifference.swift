import Foundation

/// One difference between two documents: where it is, what kind of change it is, and the two
/// sides. `PropertyListDiff` and `KeyedArchiveDiff` produce them; `PropertyListDiffReport`
/// renders them as text or JSON.
public struct PropertyListDifference: Sendable, Hashable {
    public enum Change: String, Sendable, Hashable {
        /// Only the new document has a value here.
        case added
        /// Only the old document has a value here.
        case removed
        /// Both have a value of the same type, and the values differ.
        case changed
        /// Both have a value, of different types (integer 1 and float 1.0), or objects of
        /// different classes.
        case typeChanged
    }

    /// One side of a difference.
    public struct Side: Sendable, Hashable {
        /// plutil's type name (`integer`, `float`, `dictionary`…), or an archived object's class.
        public var type: String
        /// The value when it is a plain property-list value; nil for an archived object.
        public var value: PropertyListValue?
        /// A one-line description for people: the value, shortened, or the object's summary.
        public var summary: String

        public init(type: String, value: PropertyListValue?, summary: String) {
            self.type = type
            self.value = value
            self.summary = summary
        }

        /// The side for a plain value.
        public init(_ value: PropertyListValue) {
            self.init(type: value.plutilTypeName ?? value.typeName, value: value, summary: PropertyListDifference.summary(of: value))
        }
    }

    /// Where: a plutil keypath for plists (`CFBundleURLTypes.0.CFBundleURLSchemes`, empty for
    /// the whole document), a path from `$top` for archives (`root.items[3].tintColor.red`).
    public var path: String
    public var change: Change
    /// The old side; nil when `added`.
    public var old: Side?
    /// The new side; nil when `removed`.
    public var new: Side?

    public init(path: String, change: Change, old: Side?, new: Side?) {
        self.path = path
        self.change = change
        self.old = old
        self.new = new
    }

    /// A value in one line of at most about `limit` characters: strings quoted, floats always
    /// with a fraction or exponent (so `1.0` is not mistaken for the integer `1`), dates in ISO
    /// 8601, data as its length and first bytes, collections inline up to the limit.
    public static func summary(of value: PropertyListValue, limit: Int = 120) -> String {
        var out = ""
        append(value, to: &out, budget: limit)
        return out
    }

    static func append(_ value: PropertyListValue, to out: inout String, budget: Int) {
        let start = out.count
        func full() -> Bool { out.count - start >= budget }
        switch value {
        case .string(let s):
            let quoted = PropertyListPrettyPrinter.quoted(s)
            out += quoted.count > budget ? String(quoted.prefix(max(budget - 1, 8))) + "…\"" : quoted
        case .invalidUTF16String(let units):
            out += "<invalid UTF-16: \(units.count) units>"
        case .integer(let i): out += i.description
        case .real(let r): out += r.isNaN ? "nan" : (r.isInfinite ? (r < 0 ? "-inf" : "inf") : "\(r)")
        case .bool(let b): out += b ? "true" : "false"
        case .date(let d): out += PropertyListPrettyPrinter.dateText(d)
        case .data(let d): out += PropertyListPrettyPrinter.dataText(d, limit: 16)
        case .uid(let u): out += "CF$UID \(u)"
        case .null: out += "null"
        case .array(let elements), .set(let elements):
            let (open, close) = value.isSetValue ? ("set{", "}") : ("[", "]")
            out += open
            for (i, e) in elements.enumerated() {
                if i > 0 { out += ", " }
                if full() { out += "… \(elements.count - i) more"; break }
                append(e, to: &out, budget: budget - (out.count - start))
            }
            out += close
        case .dictionary(let d):
            out += "{"
            for (i, (k, v)) in d.enumerated() {
                if i > 0 { out += ", " }
                if full() { out += "… \(d.count - i) more"; break }
                out += k.stringValue ?? summary(of: k, limit: 40)
                out += ": "
                append(v, to: &out, budget: budget - (out.count - start))
            }
            out += "}"
        }
    }
}

extension PropertyListValue {
    var isSetValue: Bool {
        if case .set = self { return true }
        return false
    }
}
