import Foundation
import Testing
@testable import PropertyList

/// Converts our value to the Foundation object graph PropertyListSerialization uses.
func foundationObject(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let s): return s
    case .integer(let i): return i.int64Value.map { NSNumber(value: $0) } ?? NSNumber(value: i.uint64Value ?? 0)
    case .real(let r): return NSNumber(value: r)
    case .bool(let b): return NSNumber(value: b)
    case .date(let d): return d
    case .data(let d): return d
    case .array(let a), .set(let a): return a.map(foundationObject)
    case .dictionary(let d):
        var out: [String: Any] = [:]
        for (k, v) in d { out[k.stringValue ?? ""] = foundationObject(v) }
        return out
    default: return "unsupported"
    }
}

/// Compares a Foundation object graph with our value, type-strictly where Foundation keeps types.
func matches(_ object: Any, _ value: PropertyListValue) -> Bool {
    switch value {
    case .string(let s): return (object as? String) == s
    case .integer(let i):
        guard let n = object as? NSNumber else { return false }
        if let v = i.int64Value { return n.int64Value == v }
        return n.uint64Value == i.uint64Value
    case .real(let r): return (object as? NSNumber)?.doubleValue == r
    case .bool(let b): return (object as? NSNumber)?.boolValue == b
    case .date(let d): return (object as? Date) == d
    case .data(let d): return (object as? Data) == d
    case .array(let a):
        guard let o = object as? [Any], o.count == a.count else { return false }
        return zip(o, a).allSatisfy { matches($0, $1) }
    case .dictionary(let d):
        guard let o = object as? [String: Any], o.count == d.count else { return false }
        return d.allSatisfy { k, v in o[k.stringValue ?? ""].map { matches($0, v) } ?? false }
    default: return false
    }
}

@Suite struct FoundationInteropTests {
    /// Every kind of value but the 128-bit integer, which Foundation's NSNumber cannot hold.
    static let foundationKinds: PropertyListValue = {
        var d = everyKind.dictionaryValue ?? PropertyListDictionary()
        d["big16"] = nil
        return .dictionary(d)
    }()

    @Test func foundationReadsEveryValueWeWriteInBinary() throws {
        let data = BinaryPropertyListWriter().write(Self.foundationKinds)
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        #expect(matches(object, Self.foundationKinds))
    }

    @Test func weReadEveryValueFoundationWritesInBinary() throws {
        let value = Self.foundationKinds
        let data = try PropertyListSerialization.data(fromPropertyList: foundationObject(value), format: .binary, options: 0)
        #expect(try BinaryPropertyListReader().read(data) == value)
    }
}
