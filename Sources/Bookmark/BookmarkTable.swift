/// One table of contents of a bookmark: its identifier and its (key, record) entries.
public struct BookmarkTable: Sendable, Hashable {
    /// 1 for the table that describes the bookmark's target.
    public var identifier: UInt32
    public var entries: [BookmarkEntry]

    public init(identifier: UInt32, entries: [BookmarkEntry]) {
        self.identifier = identifier
        self.entries = entries
    }
}

/// One entry of a table of contents.
public struct BookmarkEntry: Sendable, Hashable {
    public var key: BookmarkKey
    public var value: BookmarkValue
    /// The entry's third word (0 in every bookmark seen).
    public var flags: UInt32

    public init(key: BookmarkKey, value: BookmarkValue, flags: UInt32 = 0) {
        self.key = key
        self.value = value
        self.flags = flags
    }
}
