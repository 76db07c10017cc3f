/// URL bookmark data and classic alias records, as `BookmarkError` names its kinds.
public enum BookmarkFormat: ByteInputFormat {
    public static let codeNames: Set<String> = [
        "notABookmark", "truncated", "malformed", "limitExceeded"
    ]
}
