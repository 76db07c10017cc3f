/// Why bytes are not a readable bookmark (or alias record), and where: the byte offset from the
/// start of the bookmark, and the entry being read (`table 1, key 0x1004`) when the problem is
/// inside one.
///
/// `error.code` is `.notABookmark` or one of the shared kinds: `truncated` (the bytes end before the
/// length the header gives, or a record runs past them), `malformed` (an offset, length, type or
/// table breaks the rules), `limitExceeded` (a limit of `BookmarkReadOptions`).
public typealias BookmarkError = ByteInputError<BookmarkFormat>

extension ErrorCode where Domain == BookmarkError {
    /// The bytes do not start with `book` (or `alis`) and a plausible header; for an alias
    /// record, its length or version are not an alias record's.
    public static var notABookmark: Self { Self() }
}
