/// What kind of failure an error is, for callers to match (`error.code == .notFound`).
///
/// A struct with a static member per kind rather than an enum, as swift-protobuf's
/// `SwiftProtobufError.Code`: a new kind is then an addition, not a change that breaks every
/// exhaustive `switch` over the codes. Match with `==`, or `switch` with a `default`.
///
/// One type serves every error of the package (`PropertyListError`, `TypedStreamError`,
/// `KeyedArchiveError`, `StoreError`…): each names it `Code`, declares its own kinds as static
/// members of `ErrorCode<ItsError>` and lists the names of all its kinds in
/// `CodedError.codeNames`. The kinds every reader of input has (`malformed`, `limitExceeded`,
/// `truncated`) are declared once, for the errors that adopt `InputError` or
/// `TruncatableInputError`.
public struct ErrorCode<Domain: CodedError>: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The member's name (`notFound`).
    public let rawValue: String

    /// The code named `rawValue` (its member's name), or nil for a name that is none.
    public init?(rawValue: String) {
        guard Domain.codeNames.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// The code of the static member that calls this: its name is the member's own
    /// (`public static var notFound: Self { Self() }`), so the two cannot differ.
    package init(memberName: String = #function) {
        self.rawValue = memberName
    }

    /// The member's name, as `rawValue`.
    public var description: String { rawValue }
}

/// An error that says what kind of failure it is (`code`) and what went wrong in words
/// (`message`); its `description` adds where, when the type knows.
public protocol CodedError: Error, CustomStringConvertible {
    /// The name of every code the type declares, for `ErrorCode.init?(rawValue:)`.
    static var codeNames: Set<String> { get }

    /// What kind of failure this is, for callers to match.
    var code: ErrorCode<Self> { get }

    /// What is wrong, in words.
    var message: String { get }
}

extension CodedError {
    /// The message alone, for a type that has no place to add.
    public var description: String { message }
}

/// An error of a reader of untrusted input, whose kinds include `malformed` and
/// `limitExceeded`: declared once here for every such reader, so that each error type declares
/// only the kinds of its own (`PropertyListError`, `KeyedArchiveError`, `TypedStreamError`,
/// `NIBArchiveError` and `BookmarkError`, both `ByteInputError`, `ModelError`).
public protocol InputError: CodedError {}

/// An error of a reader whose input can end too soon, so its kinds also include `truncated`
/// (`PropertyListError`, `TypedStreamError`, `NIBArchiveError`, `BookmarkError`).
public protocol TruncatableInputError: InputError {}

extension ErrorCode where Domain: InputError {
    /// The input breaks a rule of its format (an offset, reference, count, type or name that
    /// cannot be); the message says which.
    public static var malformed: Self { Self() }

    /// A configured limit was reached (depth, count, size); the reader's options name it.
    public static var limitExceeded: Self { Self() }
}

extension ErrorCode where Domain: TruncatableInputError {
    /// The input ends before the structure it announces.
    public static var truncated: Self { Self() }
}

/// An error of a layer that looks things up by name (a key path's key, an entity, a table, a
/// column), whose kinds include `notFound`: declared once here (`PropertyListEditError`,
/// `StoreError`, `PostgresError`).
public protocol LookupError: CodedError {}

/// An error of a layer whose callers can ask for something that does not fit (a rename, a
/// batch size, a shard), whose kinds include `invalidRequest`: declared once here
/// (`KeyedArchiveError`, `StoreError`, `PostgresError`).
public protocol RequestError: CodedError {}

extension ErrorCode where Domain: LookupError {
    /// What was asked for does not exist; the message names it.
    public static var notFound: Self { Self() }
}

extension ErrorCode where Domain: RequestError {
    /// The caller asked for something that does not fit; the message says what.
    public static var invalidRequest: Self { Self() }
}
