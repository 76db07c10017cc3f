import PropertyList

/// A path into a payload: `.` is the whole value, `.settings.tint` a key path, `.items[2]` (or
/// `.items.2`, as plutil writes it) an array element. `unarchive --select` uses it to keep only part of a payload, such as the
/// struct inside a box class.
public struct PayloadPath: Sendable, Hashable, CustomStringConvertible {
    public var components: [String]

    public init(_ text: String) {
        components = PayloadArchiver.components(text)
    }

    public var description: String {
        components.isEmpty ? "." : components.reduce("") { $0 + ($1.hasPrefix("[") ? $1 : "." + $1) }
    }

    /// The JSON Pointer tokens of this path in `root` (array indexes as decimal numbers), or
    /// nil when some step does not exist.
    func tokens(in root: PropertyListValue) -> [String]? {
        var current = root
        var tokens: [String] = []
        for c in components {
            if c.hasPrefix("["), c.hasSuffix("]"), let i = Int(c.dropFirst().dropLast()) {
                guard case .array(let a) = current, a.indices.contains(i) else { return nil }
                current = a[i]
                tokens.append(String(i))
            } else if case .array(let a) = current {
                guard let i = Int(c), a.indices.contains(i) else { return nil }
                current = a[i]
                tokens.append(String(i))
            } else {
                guard case .dictionary(let d) = current, let next = d[c] else { return nil }
                current = next
                tokens.append(c)
            }
        }
        return tokens
    }

    /// The value at this path, or nil when some step does not exist.
    public func value(in root: PropertyListValue) -> PropertyListValue? {
        var current = root
        for c in components {
            if c.hasPrefix("["), c.hasSuffix("]"), let i = Int(c.dropFirst().dropLast()) {
                guard case .array(let a) = current, a.indices.contains(i) else { return nil }
                current = a[i]
            } else if case .array(let a) = current {
                // plutil's keypaths index arrays with a plain number: `.items.2` is `.items[2]`.
                guard let i = Int(c), a.indices.contains(i) else { return nil }
                current = a[i]
            } else {
                guard case .dictionary(let d) = current, let next = d[c] else { return nil }
                current = next
            }
        }
        return current
    }
}
