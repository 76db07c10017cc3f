/// The class of an archived object, as its class dictionary describes it.
///
/// The chain is what the writer of the blob claims; it is shown, never trusted for security
/// decisions (see the allow-list checks).
public struct ArchivedClass: Sendable, Hashable {
    /// The UID of the class dictionary.
    public var uid: Int
    /// `$classname` as written: `NSArray`, `Eventail.SerializableColor` or `_TtC8Eventail17SerializableColor`.
    public var name: String
    /// `$classes`: the class and its superclasses, most derived first.
    public var chain: [String]
    /// `$classhints`: the classes to try on another platform (UIColor archives name NSColor).
    public var hints: [String]

    public init(uid: Int, name: String, chain: [String], hints: [String] = []) {
        self.uid = uid
        self.name = name
        self.chain = chain
        self.hints = hints
    }

    /// The name a person reads: Swift mangled names demangled (`Eventail.SerializableColor`).
    public var readableName: String { SwiftClassName.demangle(name) ?? name }

    /// Whether the name was written in Swift's mangled form.
    public var isMangled: Bool { SwiftClassName.demangle(name) != nil }
}
