import Foundation

/// Numbers the objects of a `PropertyListValue` tree as CF does, into an object table: depth
/// first, a collection before its children, a dictionary's keys before its values, equal
/// scalars once.
struct BinaryPropertyListFlattener: ~Copyable {
    var table = BinaryPropertyListObjectTable()
    /// The keys arrays flattened most recently, with their objects' indexes: dictionaries of
    /// one shape share one keys array (the readers see to it), whose keys then need no
    /// encoding and look-up again.
    var recentKeys = RecentRing<(keys: [PropertyListValue], refs: [Int])>(capacity: 4)

    init() {}

    @discardableResult
    mutating func flatten(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            let (index, childrenStart) = table.beginCollection()
            for e in elements { table.addChild(flatten(e)) }
            let marker: UInt8 = if case .set = value { 0xC } else { 0xA }
            table.endCollection(index, marker: marker, childrenStart: childrenStart, entries: elements.count)
            return index
        case .dictionary(let d):
            let (index, childrenStart) = table.beginCollection()
            addKeyRefs(d.keys)
            for v in d.values { table.addChild(flatten(v)) }
            table.endCollection(index, marker: 0xD, childrenStart: childrenStart, entries: d.count)
            return index
        default:
            let start = table.scalarStart
            table.scalarBytes.writeScalar(value)
            return table.finishScalar(from: start)
        }
    }

    /// Adds the object indexes of a dictionary's keys as children: from the recent ones when it
    /// has the same keys array. Keys are scalars (a collection key is flattened like any value),
    /// so the same keys flattened again would give the same indexes.
    mutating func addKeyRefs(_ keys: [PropertyListValue]) {
        if let recent = recentKeys.first(where: { Self.sameStorage($0.keys, keys) }) {
            for r in recent.refs { table.addChild(r) }
            return
        }
        var out: [Int] = []
        out.reserveCapacity(keys.count)
        var scalarsOnly = true
        for k in keys {
            if k.isCollection { scalarsOnly = false }
            let index = flatten(k)
            out.append(index)
            table.addChild(index)
        }
        guard scalarsOnly else { return }
        recentKeys.remember((keys, out))
    }

    static func sameStorage(_ a: [PropertyListValue], _ b: [PropertyListValue]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }

    consuming func serialize() -> Data {
        table.serialize()
    }
}
