import PropertyList

/// The values of all open containers, innermost last, in one buffer.
///
/// When a container closes its values are moved, not copied, into an exactly sized array, so
/// each value is retained once however deep it sits. The owner must call `release()`.
struct XMLValueStack {
    private var base: UnsafeMutablePointer<PropertyListValue>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// Destroys the values still held and frees the buffer.
    mutating func release() {
        base.deinitialize(count: count)
        base.deallocate()
        count = 0
        capacity = 0
    }

    subscript(index: Int) -> PropertyListValue {
        precondition(index >= 0 && index < count, "value stack index out of range")
        return base[index]
    }

    mutating func push(_ value: PropertyListValue) {
        if count == capacity { grow() }
        (base + count).initialize(to: value)
        count += 1
    }

    mutating func popLast() -> PropertyListValue? {
        guard count > 0 else { return nil }
        count -= 1
        return (base + count).move()
    }

    /// Moves the values from `start` to the top into an array.
    mutating func popArray(from start: Int) -> [PropertyListValue] {
        let n = count - start
        guard n > 0 else { return [] }
        let source = base + start
        let array = [PropertyListValue](unsafeUninitializedCapacity: n) { buffer, initialized in
            guard let target = buffer.baseAddress else { return }
            target.moveInitialize(from: source, count: n)
            initialized = n
        }
        count = start
        return array
    }

    /// Moves the values from `start` to the top, alternately keys and values, into a dictionary.
    mutating func popDictionary(from start: Int) -> PropertyListDictionary {
        let pairs = (count - start) / 2
        precondition(pairs * 2 == count - start, "a dictionary needs as many values as keys")
        guard pairs > 0 else { return PropertyListDictionary() }
        let source = base + start
        let keys = [PropertyListValue](unsafeUninitializedCapacity: pairs) { buffer, initialized in
            guard let target = buffer.baseAddress else { return }
            for i in 0..<pairs { (target + i).initialize(to: (source + 2 * i).move()) }
            initialized = pairs
        }
        let values = [PropertyListValue](unsafeUninitializedCapacity: pairs) { buffer, initialized in
            guard let target = buffer.baseAddress else { return }
            for i in 0..<pairs { (target + i).initialize(to: (source + 2 * i + 1).move()) }
            initialized = pairs
        }
        count = start
        return PropertyListDictionary(keys: keys, values: values)
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<PropertyListValue>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
