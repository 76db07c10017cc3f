import Foundation

/// One value of a property list, in any of the formats Apple defines.
///
/// The model is lossless for everything the binary format can carry, because forensic users
/// need every byte accounted for: 128-bit integers, non-string dictionary keys, sets, UIDs,
/// the null marker, and UTF-16 strings that are not valid Unicode.
public enum PropertyListValue: Sendable, Hashable {
    case string(String)
    /// A UTF-16 string holding lone surrogates, kept as its raw code units.
    /// Readers produce it only when `PropertyListReadOptions.preservesInvalidUTF16` is on.
    case invalidUTF16String([UInt16])
    case integer(PropertyListInteger)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary(PropertyListDictionary)
    /// A set (binary marker 0xC). Order is kept as read; equality ignores it.
    case set([PropertyListValue])
    /// A keyed-archive object reference (binary marker 0x8, XML `CF$UID`).
    case uid(UInt64)
    /// The binary null marker 0x00, which no Apple writer emits but readers must accept.
    case null
}

extension PropertyListValue {
    /// The name of the case, as used in messages and in `print` output.
    public var typeName: String {
        switch self {
        case .string, .invalidUTF16String: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "bool"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .set: "set"
        case .uid: "uid"
        case .null: "null"
        }
    }

    /// Whether the value is a collection, which cannot be a dictionary key.
    public var isCollection: Bool {
        switch self {
        case .array, .dictionary, .set: true
        default: false
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var arrayValue: [PropertyListValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    public var integerValue: PropertyListInteger? {
        if case .integer(let i) = self { return i }
        return nil
    }

    public var uidValue: UInt64? {
        if case .uid(let u) = self { return u }
        return nil
    }

    public var dataValue: Data? {
        if case .data(let d) = self { return d }
        return nil
    }

    /// Looks up a string key in a dictionary value.
    public subscript(key: String) -> PropertyListValue? {
        dictionaryValue?[key]
    }

    /// The number of values in the tree, counting this one, keys included.
    public var valueCount: Int {
        switch self {
        case .array(let a), .set(let a): return a.reduce(1) { $0 + $1.valueCount }
        case .dictionary(let d):
            return d.reduce(1) { $0 + $1.key.valueCount + $1.value.valueCount }
        default: return 1
        }
    }
}

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(PropertyListInteger(value)) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(PropertyListDictionary(elements.map { (.string($0.0), $0.1) }))
    }
}

extension PropertyListValue {
    /// Equality as property lists mean it: sets and dictionaries ignore order, NaN equals NaN
    /// so that a value read back from a file compares equal to the value written, and strings
    /// compare by their code points, as CF does, not by Unicode canonical equivalence: "é" and
    /// "e\u{301}" are different keys in a CF dictionary and must stay different here.
    public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return literallyEqual(a, b)
        case (.invalidUTF16String(let a), .invalidUTF16String(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.bool(let a), .bool(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)): return a == b
        case (.set(let a), .set(let b)):
            return a.count == b.count
                && PropertyListDictionary(keys: a, values: a) == PropertyListDictionary(keys: b, values: b)
        case (.uid(let a), .uid(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s):
            hasher.combine(0)
            var s = s
            s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .invalidUTF16String(let u): hasher.combine(1); hasher.combine(u)
        case .integer(let i): hasher.combine(2); hasher.combine(i)
        case .real(let r): hasher.combine(3); hasher.combine(r.isNaN ? .nan : r)
        case .bool(let b): hasher.combine(4); hasher.combine(b)
        case .date(let d): hasher.combine(5); hasher.combine(d)
        case .data(let d): hasher.combine(6); hasher.combine(d)
        case .array(let a): hasher.combine(7); hasher.combine(a)
        case .dictionary(let d): hasher.combine(8); hasher.combine(d)
        case .set(let s):
            hasher.combine(9)
            hasher.combine(PropertyListDictionary(keys: s, values: s))
        case .uid(let u): hasher.combine(10); hasher.combine(u)
        case .null: hasher.combine(11)
        }
    }
}
