/// Why bytes are not a readable bookmark (or alias record), and where.
public struct BookmarkError: TruncatableInputError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .notABookmark`); see `ErrorCode`.
    /// Besides its own kinds, the shared kinds: `truncated` (the bytes end before the length the header gives, or a
    /// record runs past them), `malformed` (an offset, length, type or table breaks the rules),
    /// `limitExceeded` (a limit of `BookmarkReadOptions`).
    public typealias Code = ErrorCode<BookmarkError>

    public static let codeNames: Set<String> = [
        "notABookmark", "truncated", "malformed", "limitExceeded"
    ]

    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The byte offset of the problem, from the start of the bookmark.
    public var offset: Int
    /// The entry being read, as `table 1, key 0x1004`, when the problem is inside one.
    public var entry: String?

    public init(_ code: Code, _ message: String, offset: Int, entry: String? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.entry = entry
    }

    /// `malformed: a record at offset 1234 is past the end at byte 48 (table 1, key 0x1004)`.
    public var description: String {
        var text = message + " at byte \(offset)"
        if let entry { text += " (\(entry))" }
        return text
    }
}

extension ErrorCode where Domain == BookmarkError {
    /// The bytes do not start with `book` (or `alis`) and a plausible header; for an alias
    /// record, its length or version are not an alias record's.
    public static var notABookmark: Self { Self() }
}
