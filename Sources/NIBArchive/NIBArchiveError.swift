/// Why bytes are not a readable NIBArchive, and where.
public struct NIBArchiveError: TruncatableInputError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .notANIBArchive`); see `ErrorCode`.
    /// Besides its own kinds, the shared kinds: `truncated` (a table, or a value in one, runs past the end of the
    /// bytes), `malformed` (a count, offset, index, type byte or name breaks the rules),
    /// `limitExceeded` (a limit of `NIBArchiveReadOptions`).
    public typealias Code = ErrorCode<NIBArchiveError>

    public static let codeNames: Set<String> = [
        "notANIBArchive", "truncated", "malformed", "limitExceeded"
    ]

    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The byte offset of the problem.
    public var offset: Int
    /// The entry being read, as `value 12` or `object 3`, when the problem is inside one.
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

extension ErrorCode where Domain == NIBArchiveError {
    /// The bytes do not start with the magic `NIBArchive`.
    public static var notANIBArchive: Self { Self() }
}
