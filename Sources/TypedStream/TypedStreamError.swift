/// Why bytes are not a readable typedstream, and where.
public struct TypedStreamError: TruncatableInputError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .notATypedStream`); see `ErrorCode`.
    /// Besides its own kinds, the shared kinds: `truncated` (the stream ends inside a value), `malformed` (a byte,
    /// reference, type encoding or class breaks the rules), `limitExceeded` (a limit of
    /// `TypedStreamReadOptions`).
    public typealias Code = ErrorCode<TypedStreamError>

    public static let codeNames: Set<String> = [
        "notATypedStream", "unsupportedVersion", "truncated", "malformed", "limitExceeded"
    ]

    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The byte offset of the problem in the stream.
    public var offset: Int
    /// The class of the object being read, when the problem is inside one.
    public var className: String?
    /// The position of the value being read, as `group 3, value 2` of that object or of the top level.
    public var field: String?

    public init(_ code: Code, _ message: String, offset: Int, className: String? = nil, field: String? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.className = className
        self.field = field
    }

    /// `truncated: the stream ends inside a 4-byte integer at byte 812 (in NSColor, group 2, value 1)`.
    public var description: String {
        var text = message + " at byte \(offset)"
        switch (className, field) {
        case let (name?, field?): text += " (in \(name), \(field))"
        case let (name?, nil): text += " (in \(name))"
        case let (nil, field?): text += " (top level, \(field))"
        case (nil, nil): break
        }
        return text
    }
}

extension ErrorCode where Domain == TypedStreamError {
    /// The bytes do not start with a typedstream header (`04 0B typedstream|streamtyped`).
    public static var notATypedStream: Self { Self() }

    /// A header that names a streamer version Archivist does not read (only 4 is read).
    public static var unsupportedVersion: Self { Self() }
}
