/// A dictionary that keeps its entries in the order they were read.
///
/// Binary plists may use any scalar as a key (integers, data, dates), so keys are
/// `PropertyListValue`s, not strings. Entries are stored as read, duplicates included,
/// and equality ignores order, as property-list semantics do.
public struct PropertyListDictionary: Sendable, Hashable, RandomAccessCollection {
    public typealias Element = (key: PropertyListValue, value: PropertyListValue)

    public private(set) var keys: [PropertyListValue]
    public private(set) var values: [PropertyListValue]

    public init() {
        keys = []
        values = []
    }

    public init(keys: [PropertyListValue], values: [PropertyListValue]) {
        precondition(keys.count == values.count, "keys and values must pair up")
        self.keys = keys
        self.values = values
    }

    public init<S: Sequence>(_ entries: S) where S.Element == (PropertyListValue, PropertyListValue) {
        self.init()
        for (k, v) in entries { append(key: k, value: v) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }
    public subscript(position: Int) -> Element { (keys[position], values[position]) }

    public mutating func reserveCapacity(_ n: Int) {
        keys.reserveCapacity(n)
        values.reserveCapacity(n)
    }

    /// Adds an entry at the end, keeping any earlier entry with the same key.
    public mutating func append(key: PropertyListValue, value: PropertyListValue) {
        keys.append(key)
        values.append(value)
    }

    /// The value of the last entry whose key is `key`, as CF's last-one-wins reading does.
    public subscript(key: PropertyListValue) -> PropertyListValue? {
        get {
            var i = keys.count
            while i > 0 {
                i -= 1
                if keys[i] == key { return values[i] }
            }
            return nil
        }
        set {
            if let i = keys.lastIndex(of: key) {
                if let newValue { values[i] = newValue } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                }
            } else if let newValue {
                append(key: key, value: newValue)
            }
        }
    }

    public subscript(key: String) -> PropertyListValue? {
        get {
            var i = keys.count
            while i > 0 {
                i -= 1
                if case .string(let s) = keys[i], literallyEqual(s, key) { return values[i] }
            }
            return nil
        }
        set { self[.string(key)] = newValue }
    }

    /// The index of the last entry whose key is the string `key`, the one CF's reading keeps.
    public func lastIndex(ofKey key: String) -> Int? {
        var i = keys.count
        while i > 0 {
            i -= 1
            if case .string(let s) = keys[i], literallyEqual(s, key) { return i }
        }
        return nil
    }

    /// Changes the value of entry `index` in place, without copying the value out first.
    public mutating func modifyValue<R, E: Error>(at index: Int, _ body: (inout PropertyListValue) throws(E) -> R) throws(E) -> R {
        try body(&values[index])
    }

    /// Removes every entry whose key is the string `key`, and returns how many there were.
    @discardableResult
    public mutating func removeAll(key: String) -> Int {
        var removed = 0
        var i = keys.count
        while i > 0 {
            i -= 1
            if case .string(let s) = keys[i], literallyEqual(s, key) {
                keys.remove(at: i)
                values.remove(at: i)
                removed += 1
            }
        }
        return removed
    }

    /// Whether some key occurs more than once.
    public var hasDuplicateKeys: Bool { Set(keys).count != keys.count }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        var remaining = [PropertyListValue: [PropertyListValue]](minimumCapacity: rhs.keys.count)
        for (k, v) in zip(rhs.keys, rhs.values) { remaining[k, default: []].append(v) }
        for (k, v) in zip(lhs.keys, lhs.values) {
            guard var candidates = remaining[k], let i = candidates.firstIndex(of: v) else { return false }
            candidates.remove(at: i)
            remaining[k] = candidates
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==.
        var combined = 0
        for (k, v) in zip(keys, values) {
            var h = Hasher()
            h.combine(k)
            h.combine(v)
            combined ^= h.finalize()
        }
        hasher.combine(keys.count)
        hasher.combine(combined)
    }
}
