/// Compiled nibs (the NIBArchive format), as `NIBArchiveError` names its kinds.
public enum NIBArchiveFormat: ByteInputFormat {
    public static let codeNames: Set<String> = [
        "notANIBArchive", "truncated", "malformed", "limitExceeded"
    ]
}
