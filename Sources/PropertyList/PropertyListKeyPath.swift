/// A path to a value inside a property list, with plutil's rules.
///
/// The text is dot-separated keys, as key-value coding writes them: `CFBundleURLTypes.0.CFBundleURLSchemes`.
/// A component that is a decimal number indexes an array; on a dictionary it is an ordinary key.
/// `\.` puts a dot inside a key (`com\.apple\.foo.enabled` has two components); any other
/// backslash is kept as it is. An empty component matches nothing, so an empty text addresses
/// no value, as in plutil.
public struct PropertyListKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys and indexes, unescaped.
    public var components: [String]

    public init(components: [String]) {
        self.components = components
    }

    /// Parses plutil's keypath syntax.
    public init(_ text: String) {
        var components: [String] = []
        var current = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if scalar == "\\", pending == "." {
                current.unicodeScalars.append(".")
                pending = scalars.next()
            } else if scalar == "." {
                components.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        components.append(current)
        self.components = components
    }

    /// The path in plutil's syntax, dots inside keys escaped.
    public var description: String {
        components.map { $0.replacingOccurrences(of: ".", with: "\\.") }.joined(separator: ".")
    }

    /// The index a component names in an array, as plutil reads it: a decimal integer.
    static func index(_ component: String) -> Int? {
        Int(component)
    }
}
