/// Why code cannot be generated for a set of values.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A value nests deeper than `PayloadShapeInferrer.maximumDepth`.
        case tooDeep
    }

    public var code: Code
    /// What is wrong, in words.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
