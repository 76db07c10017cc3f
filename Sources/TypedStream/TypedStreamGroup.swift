/// A group of values written by one `encodeValuesOfObjCTypes:` (or `encodeObject:`, which is a
/// group of one `@`): the type encoding string, then one value per type in it.
public struct TypedStreamGroup: Sendable, Hashable {
    /// The type encoding string as written: `@`, `iI`, `{_NSRect={_NSPoint=ff}{_NSSize=ff}}`.
    public var encoding: String
    /// One value for each type of `encoding`, in order.
    public var values: [TypedStreamValue]
    /// Where the group starts in the stream.
    public var offset: Int

    public init(encoding: String, values: [TypedStreamValue], offset: Int) {
        self.encoding = encoding
        self.values = values
        self.offset = offset
    }
}
