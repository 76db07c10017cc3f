/// The last few things a writer or reader met, searched before doing the work they save again:
/// records of one shape share their keys, and archives use a few classes over and over, so a
/// handful of recent entries catch nearly every repeat without hashing. The oldest is replaced
/// once the ring is full.
package struct RecentRing<Element> {
    package private(set) var elements: [Element] = []
    private var next = 0
    package let capacity: Int

    package init(capacity: Int = 8) {
        self.capacity = max(capacity, 1)
    }

    /// The first remembered element that `match` accepts.
    @inline(__always)
    package func first(where match: (Element) throws -> Bool) rethrows -> Element? {
        for element in elements where try match(element) { return element }
        return nil
    }

    /// Remembers `element`, in place of the oldest once full.
    package mutating func remember(_ element: Element) {
        if elements.count < capacity {
            elements.append(element)
        } else {
            elements[next] = element
            next = (next + 1) % capacity
        }
    }
}
