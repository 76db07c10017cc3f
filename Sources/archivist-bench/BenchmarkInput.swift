import Foundation
import PropertyList

/// The generated document: an array of dictionaries of every common kind of value.
enum BenchmarkInput {
    /// 13 values per dictionary (itself, 8 entries, and 4 in a small array), keys not counted.
    static func make(dictionaries: Int) -> PropertyListValue {
        var generator = SplitMix64(seed: 0x5EED)
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
        let accents = ["café", "naïve", "Ångström", "über", "日本語", "façade", "niño", "Zürich"]
        var items: [PropertyListValue] = []
        items.reserveCapacity(dictionaries)
        for n in 0..<dictionaries {
            let r = generator.next()
            var d = PropertyListDictionary()
            d.reserveCapacity(8)
            func put(_ k: String, _ v: PropertyListValue) { d.append(key: .string(k), value: v) }
            // One title in four is not ASCII, so UTF-16 strings are exercised too.
            let title = n % 4 == 0 ? "\(accents[Int(r >> 8 % 8)]) \(n)" : "title \(n)"
            put("name", .string("item-\(n)"))
            put("title", .string(title))
            put("count", .integer(PropertyListInteger(Int64(r % 100_000) - 50_000)))
            put("score", .real(Double(r % 1_000_000) / 997.0))
            put("enabled", .bool(r & 1 == 0))
            put("modified", .date(Date(timeIntervalSinceReferenceDate: Double(r % 700_000_000))))
            put("digest", .data(Data((0..<8).map { UInt8(truncatingIfNeeded: r >> UInt64($0 * 8)) })))
            put("tags", .array([.string(words[Int(r >> 3 % 8)]), .string(words[Int(r >> 6 % 8)]),
                                .integer(PropertyListInteger(n % 7)), .real(Double(n % 5) / 4)]))
            items.append(.dictionary(d))
        }
        return .array(items)
    }

    /// Values in the tree, not counting dictionary keys.
    static func countValues(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let a), .set(let a): return a.reduce(1) { $0 + countValues($1) }
        case .dictionary(let d): return d.values.reduce(1) { $0 + countValues($1) }
        default: return 1
        }
    }

    /// The same tree as Foundation objects, for PropertyListSerialization.
    static func foundationObject(_ value: PropertyListValue) -> Any {
        switch value {
        case .string(let s): return s
        case .integer(let i): return NSNumber(value: i.int64Value ?? 0)
        case .real(let r): return NSNumber(value: r)
        case .bool(let b): return NSNumber(value: b)
        case .date(let d): return d
        case .data(let d): return d
        case .array(let a): return a.map(foundationObject)
        case .dictionary(let d):
            let out = NSMutableDictionary(capacity: d.count)
            for (k, v) in d { out[k.stringValue ?? ""] = foundationObject(v) }
            return out
        default: return ""
        }
    }
}
