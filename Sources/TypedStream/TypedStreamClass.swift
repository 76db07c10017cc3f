/// A class as a typedstream names it: its name, the version its `+version` gave when the stream
/// was written, and its superclass (nil for a root class such as NSObject).
public struct TypedStreamClass: Sendable, Hashable {
    public var name: String
    public var version: Int
    /// The superclass, by index into `TypedStream.classes`.
    public var superclass: Int?

    public init(name: String, version: Int, superclass: Int?) {
        self.name = name
        self.version = version
        self.superclass = superclass
    }
}
