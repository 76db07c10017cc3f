/// What a JSON writer can take of a tree, and the key order plutil writes it in: the checks
/// `plutil -convert json` makes before it writes, and that an edited JSON file needs.
extension PropertyListValue {
    /// Whether some dictionary in the tree has a key that is no string (a binary plist allows
    /// any; XML and JSON do not).
    public var hasNonStringKey: Bool {
        switch self {
        case .dictionary(let d): d.keys.contains { $0.stringValue == nil } || d.values.contains(where: \.hasNonStringKey)
        case .array(let a), .set(let a): a.contains(where: \.hasNonStringKey)
        default: false
        }
    }

    /// Whether JSONSerialization can write the tree: strings, numbers, bools, arrays and
    /// dictionaries of them (their keys are not looked at: see `hasNonStringKey`).
    public var isJSONCompatible: Bool {
        switch self {
        case .string, .integer, .real, .bool: true
        case .array(let a): a.allSatisfy(\.isJSONCompatible)
        case .dictionary(let d): d.values.allSatisfy(\.isJSONCompatible)
        default: false
        }
    }

    /// The first kind of value in the tree that JSON has no type for (`a date`, `data`, `a UID`,
    /// `a set`, `a null`), or nil.
    public var firstNonJSONKind: String? {
        switch self {
        case .date: "a date"
        case .data: "data"
        case .uid: "a UID"
        case .set: "a set"
        case .null: "a null"
        case .array(let a): a.lazy.compactMap(\.firstNonJSONKind).first
        case .dictionary(let d): d.values.lazy.compactMap(\.firstNonJSONKind).first
        default: nil
        }
    }

    /// The tree with every dictionary's entries in plutil's key order (`PropertyListKeyOrder`),
    /// as `plutil -convert json -r` writes them.
    public var sortedByPlutilKeyOrder: PropertyListValue {
        switch self {
        case .array(let a): .array(a.map(\.sortedByPlutilKeyOrder))
        case .dictionary(let d):
            .dictionary(PropertyListDictionary(zip(d.keys, d.values)
                .sorted { PropertyListKeyOrder.plutil($0.0.stringValue ?? "", $1.0.stringValue ?? "") }
                .map { ($0.0, $0.1.sortedByPlutilKeyOrder) }))
        default: self
        }
    }
}
