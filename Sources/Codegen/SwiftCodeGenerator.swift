/// Writes the Swift a developer pastes into the app for a set of payloads: the Codable types
/// that decode every value, and the transformer subclass that still reads the old archives.
///
/// ```swift
/// var inferrer = PayloadShapeInferrer()
/// for payload in payloads { inferrer.add(payload) }
/// let generator = SwiftCodeGenerator(typeName: "BowTieTint")
/// let source = generator.source(for: inferrer.shape)
/// ```
public struct SwiftCodeGenerator: Sendable {
    /// How numbers are typed.
    public enum NumberTypes: String, Sendable, Hashable, CaseIterable {
        /// `Int` for every integer that fits 64 signed bits (`UInt64` above), `Double` for
        /// reals: what Swift code uses, and safe for values not seen yet.
        case natural
        /// The smallest type holding every value seen: `Int8`…`Int64`, `UInt64`, `Float`, `Double`.
        case smallest
    }

    /// The transformer subclass to write, inside `#if canImport(CoreData)`: an
    /// `NSSecureUnarchiveFromDataTransformer` whose list is `super.allowedTopLevelClasses` (the
    /// secure defaults) plus `classes`.
    public struct Transformer: Sendable, Hashable {
        /// The subclass's name (`BowTieTintTransformer`).
        public var className: String
        /// The name it is registered under and that the model names; `className` by default.
        public var registeredName: String
        /// The classes it adds to the defaults, readable names (`UIColor`,
        /// `Eventail.SerializableColor`): those the old values hold that the defaults refuse.
        public var classes: [String]
        /// Lines added to its documentation (why it has its name).
        public var documentation: [String]

        public init(className: String, registeredName: String? = nil, classes: [String], documentation: [String] = []) {
            self.className = className
            self.registeredName = registeredName ?? className
            self.classes = classes
            self.documentation = documentation
        }

        /// The classes as the app's Swift code names them (`Eventail.SerializableColor` is
        /// `SerializableColor`): a generated type must not take one of these names, since the
        /// app still has those classes.
        public var swiftClassNames: [String] { classes.map(SwiftDeclarationBuilder.swiftClassName) }
    }

    /// The name of the type of one whole value.
    public var typeName: String
    public var numberTypes: NumberTypes
    /// How the payloads spell dates and data, for the decoder the comments show.
    public var encoding: PayloadEncoding
    public var transformer: Transformer?
    /// Lines for the comment at the top of the file (where the values came from).
    public var header: [String]
    /// Lines for the documentation of the type `typeName` names.
    public var documentation: [String]

    public init(typeName: String, numberTypes: NumberTypes = .natural, encoding: PayloadEncoding = .json,
                transformer: Transformer? = nil, header: [String] = [], documentation: [String] = []) {
        self.typeName = typeName
        self.numberTypes = numberTypes
        self.encoding = encoding
        self.transformer = transformer
        self.header = header
        self.documentation = documentation
    }

    /// Whether `name` can name the generated type: an identifier that is not a keyword and
    /// not a type the file itself uses (`Data`, `Date`, `String`…).
    public static func isValidTypeName(_ name: String) -> Bool {
        SwiftName.isPlainIdentifier(name) && !SwiftDeclarationBuilder.reservedNames.contains(name)
    }

    /// The Swift source for values of `shape`.
    public func source(for shape: PayloadShape) -> String {
        var builder = SwiftDeclarationBuilder(generator: self)
        return SwiftSourceRenderer().render(builder.file(for: shape))
    }
}
