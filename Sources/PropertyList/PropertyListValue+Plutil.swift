import Foundation

extension PropertyListValue {
    /// plutil's name for the type (`-type`, `-expect`): bool, integer, float, string, date, data,
    /// array or dictionary. Nil for what plutil has no name for: sets, UIDs and the null marker.
    public var plutilTypeName: String? {
        switch self {
        case .bool: "bool"
        case .integer: "integer"
        case .real: "float"
        case .string, .invalidUTF16String: "string"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .set, .uid, .null: nil
        }
    }

    /// The value as `plutil -extract KEYPATH raw` prints it, without the final line break:
    /// a string as it is, `true` or `false`, an integer in decimal, a float as C's `%f`, a date
    /// in ISO 8601 (UTC, whole seconds), data in base64, an array's count, and a dictionary's
    /// keys one per line in plutil's order (`PropertyListKeyOrder`). Nil for sets, UIDs and
    /// the null marker, which plutil cannot extract raw.
    public var rawText: String? {
        switch self {
        case .string(let s): return s
        case .invalidUTF16String(let units): return String(decoding: units, as: UTF16.self)
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return i.description
        case .real(let r): return String(format: "%f", r)
        case .date(let d):
            let t = d.timeIntervalSinceReferenceDate
            guard PropertyListDateRange.contains(t) else { return nil }
            return GregorianDateTime(secondsSinceReferenceDate: t).iso8601
        case .data(let d): return d.base64EncodedString()
        case .array(let a): return String(a.count)
        case .dictionary(let d):
            return d.keys.compactMap(\.stringValue).sorted(by: PropertyListKeyOrder.plutil).joined(separator: "\n")
        case .set, .uid, .null: return nil
        }
    }
}

/// The order plutil lists dictionary keys in (`-p`, raw output, Swift and Objective-C literals):
/// Finder's order, numbers inside keys compared by value, case ignored, ties broken by the
/// characters themselves.
public enum PropertyListKeyOrder {
    /// Whether `a` comes before `b`.
    public static func plutil(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: nil, locale: rootLocale) == .orderedAscending
    }

    static let rootLocale = Locale(identifier: "")
}
