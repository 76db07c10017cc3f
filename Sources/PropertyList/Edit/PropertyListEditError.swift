/// Why a value could not be read, added, changed or removed at a key path.
///
/// `keyPath` is the whole path asked for and `failedAt` how many of its components were
/// followed before the problem, so a message can name both the path and the step.
public struct PropertyListEditError: LookupError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .notFound`); see `ErrorCode`.
    /// Besides its own kinds, the shared kind `notFound`: a component names no value (a missing key or
    /// an index past the end).
    public typealias Code = ErrorCode<PropertyListEditError>

    public static let codeNames: Set<String> = [
        "notFound", "alreadyExists", "notAnArray", "invalidIndex", "indexOutOfRange", "notAContainer", "rootNotEditable"
    ]

    public var code: Code
    public var keyPath: PropertyListKeyPath
    /// The number of components followed before the failing one.
    public var failedAt: Int
    public var message: String

    public init(_ code: Code, keyPath: PropertyListKeyPath, failedAt: Int, _ message: String) {
        self.code = code
        self.keyPath = keyPath
        self.failedAt = failedAt
        self.message = message
    }

    public var description: String { message }
}

extension ErrorCode where Domain == PropertyListEditError {
    /// `insert` found a value already at a dictionary key.
    public static var alreadyExists: Self { Self() }

    /// `append` found something other than an array at the path.
    public static var notAnArray: Self { Self() }

    /// A component is not a decimal index, and the value there is an array.
    public static var invalidIndex: Self { Self() }

    /// An index is outside what the array allows for this edit.
    public static var indexOutOfRange: Self { Self() }

    /// A component goes into a value that is neither an array nor a dictionary.
    public static var notAContainer: Self { Self() }

    /// The edit would remove or replace the whole document where that is not allowed.
    public static var rootNotEditable: Self { Self() }
}
