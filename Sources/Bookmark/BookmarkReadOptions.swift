/// Limits for reading bookmark data, each with a default that real bookmarks (a few kilobytes)
/// stay far below.
///
/// Records refer to each other by offset, so a hostile bookmark can nest arrays deeply, loop
/// one back into itself, or share one array among many so that reading expands it again and
/// again. Each limit stops one of those before it costs more than the bytes given.
public struct BookmarkReadOptions: Sendable, Hashable {
    /// The deepest nesting of arrays, dictionaries and URLs inside one another. Default 32.
    public var maximumDepth: Int = 32
    /// The most records read, counting a shared record at every place it appears. Default
    /// 1,000,000.
    public var maximumValueCount: Int = 1_000_000
    /// The most tables of contents. Default 64.
    public var maximumTableCount: Int = 64

    public init() {}

    public static let `default` = BookmarkReadOptions()
}
