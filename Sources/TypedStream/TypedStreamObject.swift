/// An object written in full: its class and the groups of values its `-encodeWithCoder:` wrote,
/// superclasses' groups first, as each class's coder calls `super` before its own fields.
///
/// The stream does not mark where one class's groups end and its subclass's begin; readers of
/// known classes know how many groups each class writes.
public struct TypedStreamObject: Sendable, Hashable {
    /// The object's class, by index into `TypedStream.classes`.
    public var classIndex: Int
    public var groups: [TypedStreamGroup]
    /// Where the object starts in the stream (its new-object tag).
    public var offset: Int

    public init(classIndex: Int, groups: [TypedStreamGroup], offset: Int) {
        self.classIndex = classIndex
        self.groups = groups
        self.offset = offset
    }
}
