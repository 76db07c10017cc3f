/// Finds and resolves keys repeated in one dictionary, for the XML, OpenStep and JSON readers.
package enum DuplicateKeys {
    /// An entry whose key already appeared at index `first`.
    package struct Repeat {
        package var first: Int
        package var later: Int
    }

    /// Every entry whose key appeared before it; empty for almost every dictionary.
    ///
    /// Small dictionaries compare keys pairwise, larger ones hash them, so the check costs
    /// little next to reading the keys.
    package static func find(in keys: [PropertyListValue]) -> [Repeat] {
        let count = keys.count
        guard count > 1 else { return [] }
        var repeats: [Repeat] = []
        if count <= 16 {
            // Through a buffer, so no key is retained to be compared: this runs for every dictionary.
            keys.withUnsafeBufferPointer { keys in
                for later in 1..<count {
                    for first in 0..<later where keys[first] == keys[later] {
                        repeats.append(Repeat(first: first, later: later))
                        break
                    }
                }
            }
            return repeats
        }
        var seen = [PropertyListValue: Int](minimumCapacity: count)
        for (index, key) in keys.enumerated() {
            if let first = seen[key] {
                repeats.append(Repeat(first: first, later: index))
            } else {
                seen[key] = index
            }
        }
        return repeats
    }

    /// One entry per key, where it first appeared, holding its last value.
    package static func keepingLast(keys: [PropertyListValue], values: [PropertyListValue], repeats: [Repeat]) -> PropertyListDictionary {
        var lastValue: [Int: Int] = [:]
        var dropped = Set<Int>()
        for r in repeats {
            lastValue[r.first] = r.later   // repeats come in order, so the last one wins
            dropped.insert(r.later)
        }
        var result = PropertyListDictionary()
        result.reserveCapacity(keys.count - dropped.count)
        for index in keys.indices where !dropped.contains(index) {
            result.append(key: keys[index], value: values[lastValue[index] ?? index])
        }
        return result
    }

    /// The warning for one repeated key.
    package static func warning(key: PropertyListValue, at location: PropertyListError.Location, first: PropertyListError.Location,
                        keyPath: [String], policy: DuplicateKeyPolicy) -> PropertyListWarning {
        let place = PropertyListError(.malformed, "", keyPath: keyPath).keyPathDescription
        let kept = policy == .keepAll ? "both entries are kept" : "the later value is kept, as Apple's readers keep it"
        return PropertyListWarning(.duplicateKey, "duplicate key \(shown(key)) at \(location) in \(place) (first at \(first)); \(kept)",
                                   at: location, keyPath: keyPath)
    }

    /// A key as messages show it: quoted, and cut short.
    static func shown(_ key: PropertyListValue) -> String {
        guard case .string(let s) = key else { return "\(key)" }
        let limit = 100
        return "\"" + (s.count > limit ? String(s.prefix(limit)) + "…" : s) + "\""
    }
}
