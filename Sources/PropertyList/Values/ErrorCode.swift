/// What kind of failure an error is, for callers to match (`error.code == .notFound`).
///
/// A struct with a static member per kind rather than an enum, as swift-protobuf's
/// `SwiftProtobufError.Code`: a new kind is then an addition, not a change that breaks every
/// exhaustive `switch` over the codes. Match with `==`, or `switch` with a `default`.
///
/// One type serves every error of the upper layers (`ModelError`, `StoreError`, `PostgresError`,
/// `CodegenError`): each names it `Code`, declares its kinds as static members of
/// `ErrorCode<ItsError>` and lists their names in `CodedError.codeNames`.
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
