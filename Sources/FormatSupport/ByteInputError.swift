/// Why bytes are not a readable file of a format, and where: a byte offset and, inside a
/// table or record, which entry.
///
/// One implementation for the binary readers whose errors say the same things
/// (`BookmarkError`, `NIBArchiveError`): each is this type for its own `Format`, which names its
/// codes, and declares its own kinds in `extension ErrorCode where Domain == ItsError`.
public struct ByteInputError<Format: ByteInputFormat>: TruncatableInputError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match; see `ErrorCode`.
    public typealias Code = ErrorCode<ByteInputError<Format>>

    public static var codeNames: Set<String> { Format.codeNames }

    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The byte offset of the problem, from the start of the bytes read.
    public var offset: Int
    /// The entry being read, as `table 1, key 0x1004` or `value 12`, when the problem is inside one.
    public var entry: String?

    public init(_ code: Code, _ message: String, offset: Int, entry: String? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.entry = entry
    }

    /// `truncated: the archive ends inside a 4-byte integer at byte 812 (value 12)`.
    public var description: String {
        var text = message + " at byte \(offset)"
        if let entry { text += " (\(entry))" }
        return text
    }
}

/// A format read by a `ByteInputError` reader: it names every code its error has.
public protocol ByteInputFormat: Sendable {
    /// The name of every code of the format's error, the shared kinds included.
    static var codeNames: Set<String> { get }
}
