/// Why code cannot be generated for a set of values.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is, for callers to match (`error.code == .tooDeep`).
    ///
    /// A struct with a static member per kind rather than an enum, as swift-protobuf's
    /// `SwiftProtobufError.Code`: a new kind is then an addition, not a change that breaks every
    /// exhaustive `switch` over the codes. Match with `==`, or `switch` with a `default`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        private enum Wrapped: String, Sendable, Hashable {
            case tooDeep
            case typeNameTaken
        }

        private var wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The code named `rawValue` (its member's name), or nil for a name that is none.
        public init?(rawValue: String) {
            guard let wrapped = Wrapped(rawValue: rawValue) else { return nil }
            self.wrapped = wrapped
        }

        /// The member's name (`tooDeep`).
        public var rawValue: String { wrapped.rawValue }

        /// The member's name, as `rawValue`.
        public var description: String { wrapped.rawValue }

        /// A value nests deeper than `PayloadShapeInferrer.maximumDepth`.
        public static var tooDeep: Code { Code(.tooDeep) }

        /// The type name asked for is the name of an archived class the transformer still
        /// allows, which the app keeps (`PayloadCodegen`).
        public static var typeNameTaken: Code { Code(.typeNameTaken) }
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
