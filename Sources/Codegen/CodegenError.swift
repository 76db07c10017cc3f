import PropertyList

/// Why code cannot be generated for a set of values.
public struct CodegenError: CodedError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .tooDeep`); see `ErrorCode`.
    public typealias Code = ErrorCode<CodegenError>

    public static let codeNames: Set<String> = ["tooDeep", "typeNameTaken"]

    public var code: Code
    /// What is wrong, in words.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

extension ErrorCode where Domain == CodegenError {
    /// A value nests deeper than `PayloadShapeInferrer.maximumDepth`.
    public static var tooDeep: Self { Self() }

    /// The type name asked for is the name of an archived class the transformer still
    /// allows, which the app keeps (`PayloadCodegen`).
    public static var typeNameTaken: Self { Self() }
}
