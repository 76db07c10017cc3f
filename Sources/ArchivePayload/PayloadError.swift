import PropertyList

/// Why an archive cannot become a payload.
public struct PayloadError: CodedError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .cycle`); see `ErrorCode`.
    public typealias Code = ErrorCode<PayloadError>

    public static let codeNames: Set<String> = [
        "cycle", "noRoot", "tooDeep", "tooLarge", "refused", "invalidMapping"
    ]

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension ErrorCode where Domain == PayloadError {
    /// The object graph loops back on itself; a tree-shaped payload cannot hold it.
    public static var cycle: Self { Self() }

    /// The archive names no root object.
    public static var noRoot: Self { Self() }

    /// Nesting beyond the configured limit.
    public static var tooDeep: Self { Self() }

    /// More values than `PayloadOptions.maximumValueCount`, shared objects counted at each use.
    public static var tooLarge: Self { Self() }

    /// The allow-list check refused the archive.
    public static var refused: Self { Self() }

    /// The payload could not be archived (a path or class that does not fit).
    public static var invalidMapping: Self { Self() }
}
