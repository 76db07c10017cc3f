/// Every difference between two property lists, each named by its plutil keypath.
///
/// Dictionaries are compared by key, whatever their order; arrays by index, or as multisets
/// with `arraysAsSets`; sets always as multisets. Values compare exactly: the integer 1 and the
/// float 1.0 differ (a type change), `0.0` and `-0.0` differ, strings compare by code point as
/// CF does. A subtree present on one side only is one difference, not one per value in it.
public struct PropertyListDiff: Sendable {
    /// One step of a path: a dictionary key or an array index.
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// Compare arrays as multisets of their elements instead of by index: for arrays that hold
    /// sets of scalars (entitlement lists, tags), where order means nothing.
    public var arraysAsSets: Bool

    public init(arraysAsSets: Bool = false) {
        self.arraysAsSets = arraysAsSets
    }

    /// The differences from `old` to `new`, in document order; empty when they are equal.
    ///
    /// The walk recurses once per level of nesting; readers cap the depth of what they read.
    public func differences(from old: PropertyListValue, to new: PropertyListValue) -> [PropertyListDifference] {
        var out: [PropertyListDifference] = []
        compare(old, new, path: [], into: &out)
        return out
    }

    /// Compares `old` and `new` at `path` (keypath components), appending what differs.
    /// `KeyedArchiveDiff` uses it for plain values inside objects, with its own path text.
    public func compare(_ old: PropertyListValue, _ new: PropertyListValue, path: [Step], into out: inout [PropertyListDifference],
                        render: ([Step]) -> String = PropertyListDiff.keyPath) {
        switch (old, new) {
        case (.dictionary(let a), .dictionary(let b)):
            // The last entry of a repeated key is the one that counts, as CF reads it.
            var newIndex: [PropertyListValue: Int] = [:]
            for (i, k) in b.keys.enumerated() { newIndex[k] = i }
            var oldIndex: [PropertyListValue: Int] = [:]
            for (i, k) in a.keys.enumerated() { oldIndex[k] = i }
            for (i, k) in a.keys.enumerated() where oldIndex[k] == i {
                let child = path + [.key(Self.component(k))]
                if let j = newIndex[k] {
                    compare(a.values[i], b.values[j], path: child, into: &out, render: render)
                } else {
                    out.append(PropertyListDifference(path: render(child), change: .removed, old: .init(a.values[i]), new: nil))
                }
            }
            for (j, k) in b.keys.enumerated() where newIndex[k] == j && oldIndex[k] == nil {
                out.append(PropertyListDifference(path: render(path + [.key(Self.component(k))]), change: .added, old: nil, new: .init(b.values[j])))
            }
        case (.array(let a), .array(let b)) where !arraysAsSets:
            for i in 0..<min(a.count, b.count) {
                compare(a[i], b[i], path: path + [.index(i)], into: &out, render: render)
            }
            for i in b.count..<max(a.count, b.count) where i < a.count {
                out.append(PropertyListDifference(path: render(path + [.index(i)]), change: .removed, old: .init(a[i]), new: nil))
            }
            for i in a.count..<max(a.count, b.count) where i < b.count {
                out.append(PropertyListDifference(path: render(path + [.index(i)]), change: .added, old: nil, new: .init(b[i])))
            }
        case (.array(let a), .array(let b)), (.set(let a), .set(let b)):
            // Multisets: each element of one side pairs with an equal element of the other.
            var unmatched: [PropertyListValue: [Int]] = [:]
            for (j, e) in b.enumerated() { unmatched[e, default: []].append(j) }
            var removed: [Int] = []
            for (i, e) in a.enumerated() {
                if var js = unmatched[e], !js.isEmpty {
                    js.removeFirst()
                    unmatched[e] = js
                } else {
                    removed.append(i)
                }
            }
            for i in removed {
                out.append(PropertyListDifference(path: render(path + [.index(i)]), change: .removed, old: .init(a[i]), new: nil))
            }
            for j in unmatched.values.flatMap({ $0 }).sorted() {
                out.append(PropertyListDifference(path: render(path + [.index(j)]), change: .added, old: nil, new: .init(b[j])))
            }
        default:
            let (oldSide, newSide) = (PropertyListDifference.Side(old), PropertyListDifference.Side(new))
            if oldSide.type != newSide.type || Self.kind(old) != Self.kind(new) {
                out.append(PropertyListDifference(path: render(path), change: .typeChanged, old: oldSide, new: newSide))
            } else if !Self.exactlyEqual(old, new) {
                out.append(PropertyListDifference(path: render(path), change: .changed, old: oldSide, new: newSide))
            }
        }
    }

    /// A path as a plutil keypath: `CFBundleURLTypes.0.CFBundleURLSchemes`.
    public static func keyPath(_ steps: [Step]) -> String {
        PropertyListKeyPath(components: steps.map {
            switch $0 {
            case .key(let k): k
            case .index(let i): String(i)
            }
        }).description
    }

    /// Equality with nothing rounded: reals and dates by their bits (NaN equal to NaN).
    public static func exactlyEqual(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)):
            return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        default: return a == b
        }
    }

    /// The case, so that a set and an array (both plain collections) still count as a type change.
    static func kind(_ value: PropertyListValue) -> Int {
        switch value {
        case .string, .invalidUTF16String: 0
        case .integer: 1
        case .real: 2
        case .bool: 3
        case .date: 4
        case .data: 5
        case .array: 6
        case .dictionary: 7
        case .set: 8
        case .uid: 9
        case .null: 10
        }
    }

    /// A dictionary key as a keypath component: a string as it is, another scalar in braces.
    static func component(_ key: PropertyListValue) -> String {
        key.stringValue ?? "{\(key.typeName) \(PropertyListDifference.summary(of: key, limit: 40))}"
    }
}
