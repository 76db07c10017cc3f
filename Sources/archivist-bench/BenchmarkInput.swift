import FixtureSupport
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

    /// The second shape: records with the values users' files hold, where `make`'s are tidy.
    /// Random reals at full precision (53 significant bits, whose shortest round-trip decimal
    /// takes 15 to 17 digits) of several magnitudes, from fractions to coordinates, timestamps
    /// and measures from 10^-9 to 10^9; dates in whole and in fractional seconds; 16-byte data
    /// (a UUID's size); titles and tags in accented Latin, Cyrillic, Greek, CJK and emoji. 18
    /// values per dictionary (itself, 13 entries, and 4 in a small array), keys not counted.
    static func makeRealWorld(records: Int) -> PropertyListValue {
        var generator = SplitMix64(seed: 0xFEED_5EED)
        let latin = ["Crème brûlée", "Ångström", "São Paulo", "Łódź", "Dvořák", "Smørrebrød", "Façade", "Zürich"]
        let cyrillic = ["Москва", "Привет, мир", "Санкт-Петербург", "Чайковский", "Ёлка", "Жёлтый", "Щука", "Юрий"]
        let greek = ["Αθήνα", "Καλημέρα", "Θεσσαλονίκη", "Ψυχή", "Ωκεανός", "Φιλοσοφία", "Ελλάδα", "Ξένος"]
        let cjk = ["東京", "北京市", "서울특별시", "日本語のテキスト", "漢字", "ひらがな", "中文字符", "한국어"]
        let emoji = ["🎉", "👍🏽", "🇫🇷", "❤️", "🚀 launch", "😀😃", "🍣🍜", "👨‍👩‍👧"]
        let scripts = [latin, cyrillic, greek, cjk, emoji]
        let tags = ["café", "naïve", "日本", "Ελλάδα", "Россия", "🌍", "plain", "data"]
        /// A uniform real in [0, 1) with all 53 bits random, as Python's `random.random()`.
        func unit(_ r: UInt64) -> Double { Double(r >> 11) * 0x1p-53 }
        var items: [PropertyListValue] = []
        items.reserveCapacity(records)
        for n in 0..<records {
            let r = generator.next(), s = generator.next(), t = generator.next(), u = generator.next(), v = generator.next()
            var d = PropertyListDictionary()
            d.reserveCapacity(13)
            func put(_ k: String, _ v: PropertyListValue) { d.append(key: .string(k), value: v) }
            let first = scripts[n % 5][Int(r >> 3 & 7)], second = scripts[(n / 5 + 2) % 5][Int(r >> 6 & 7)]
            put("name", .string("item-\(n)"))
            put("title", .string("\(first) \(second) \(n)"))
            put("count", .integer(PropertyListInteger(Int64(r % 100_000) - 50_000)))
            put("score", .real(unit(s)))
            put("latitude", .real(unit(t) * 180 - 90))
            put("longitude", .real(unit(u) * 360 - 180))
            // A measure of any size from 10^-9 to 10^9, its sign random.
            let measure = unit(r) * pow(10, Double(Int(s & 0xFF) % 19 - 9))
            put("measure", .real(t & 1 == 0 ? measure : -measure))
            put("enabled", .bool(r & 1 == 0))
            put("created", .date(Date(timeIntervalSinceReferenceDate: Double(s % 800_000_000))))
            // Seconds with a fraction, as `Date()` gives them: all the bits a double holds.
            put("modified", .date(Date(timeIntervalSinceReferenceDate: 500_000_000 + unit(v) * 300_000_000)))
            put("identifier", .data(Data((0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? u : s ^ t) >> UInt64($0 % 8 * 8)) })))
            put("tags", .array([.string(tags[Int(s >> 5 & 7)]), .string(tags[Int(t >> 7 & 7)]),
                                .integer(PropertyListInteger(n % 7)), .real(unit(u ^ r))]))
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
