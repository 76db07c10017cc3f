/// A class and how many objects of it an archive holds.
public struct SweepClassCount: Sendable, Hashable {
    /// The readable name: Swift's mangling undone (`Eventail.SerializableColor`).
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}
