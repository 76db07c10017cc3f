/// The class of an archived object, as its class dictionary describes it.
///
/// The chain is what the writer of the blob claims; it is shown, never trusted for security
/// decisions (see the allow-list checks). A class is shared by all its objects, so it is a
/// reference type: one pointer per object instead of three strings and arrays.
public final class ArchivedClass: Sendable, Hashable, CustomStringConvertible {
    /// The UID of the class dictionary.
    public let uid: Int
    /// `$classname` as written: `NSArray`, `Eventail.SerializableColor` or `_TtC8Eventail17SerializableColor`.
    public let name: String
    /// `$classes`: the class and its superclasses, most derived first.
    public let chain: [String]
    /// `$classhints`: the classes to try on another platform (UIColor archives name NSColor).
    public let hints: [String]
    /// The name a person reads: Swift mangled names demangled (`Eventail.SerializableColor`).
    public let readableName: String

    public init(uid: Int, name: String, chain: [String], hints: [String] = []) {
        self.uid = uid
        self.name = name
        self.chain = chain
        self.hints = hints
        self.readableName = SwiftClassName.demangle(name) ?? name
    }

    /// Whether the name was written in Swift's mangled form.
    public var isMangled: Bool { readableName != name }

    public static func == (a: ArchivedClass, b: ArchivedClass) -> Bool {
        a === b || (a.uid == b.uid && a.name == b.name && a.chain == b.chain && a.hints == b.hints)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uid)
        hasher.combine(name)
    }

    public var description: String { name }
}
