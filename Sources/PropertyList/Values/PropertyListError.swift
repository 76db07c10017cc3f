/// Why a property list could not be read or written, and where.
///
/// Readers keep a precise location (byte offset, line and column, object index) and the key
/// path of the value being read, so that one line tells a user what to look at.
public struct PropertyListError: TruncatableInputError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .unrecognizedFormat`); see `ErrorCode`.
    /// Besides its own kinds, the shared kinds: `truncated`, `malformed` (the structure breaks a rule of its
    /// format), `limitExceeded` (depth, objects, input or decoded size).
    public typealias Code = ErrorCode<PropertyListError>

    public static let codeNames: Set<String> = [
        "unrecognizedFormat", "truncated", "malformed", "invalidValue", "limitExceeded", "cycle", "unrepresentable"
    ]

    /// Where in the input the problem is.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        case none
        case byteOffset(Int)
        case lineColumn(line: Int, column: Int)
        /// An object of a binary plist: its index in the offset table and its byte offset.
        case object(index: Int, byteOffset: Int)

        public var description: String {
            switch self {
            case .none: ""
            case .byteOffset(let o): "byte offset \(o)"
            case .lineColumn(let l, let c): "line \(l), column \(c)"
            case .object(let i, let o): "object \(i) (byte offset \(o))"
            }
        }
    }

    public var code: Code
    public var message: String
    public var location: Location
    /// The path from the root to the value being read, such as `["items", "3", "name"]`.
    public var keyPath: [String]

    public init(_ code: Code, _ message: String, at location: Location = .none, keyPath: [String] = []) {
        self.code = code
        self.message = message
        self.location = location
        self.keyPath = keyPath
    }

    /// The key path in the dotted form used in messages, such as `root.items[3].name`.
    /// Deep paths keep their first and last six components around a count of the rest.
    public var keyPathDescription: String {
        func join(_ parts: ArraySlice<String>, onto start: String) -> String {
            parts.reduce(start) { path, part in part.first == "[" ? path + part : path + "." + part }
        }
        guard keyPath.count > 12 else { return join(keyPath[...], onto: "root") }
        let head = join(keyPath.prefix(6), onto: "root")
        return join(keyPath.suffix(6), onto: head + "…(\(keyPath.count - 12) more)…")
    }

    public var description: String {
        var text = message
        if location != .none, !messageNamesLocation { text += " at \(location)" }
        if !keyPath.isEmpty { text += " (in \(keyPathDescription))" }
        return text
    }
}

extension ErrorCode where Domain == PropertyListError {
    /// The bytes start like no property-list format.
    public static var unrecognizedFormat: Self { Self() }

    /// A value is well-formed but impossible (a NaN date, a collection used as a key).
    public static var invalidValue: Self { Self() }

    /// An object refers back to itself.
    public static var cycle: Self { Self() }

    /// The value cannot be written in the requested format.
    public static var unrepresentable: Self { Self() }
}

extension PropertyListError {
    /// How the JSON writer's refusal of NaN and the infinities begins, so that a caller can
    /// name its own option for them (the CLI's `--non-conforming-floats`).
    package static let nonConformingFloatMessagePrefix = "JSON cannot hold the"
}

extension PropertyListError {
    /// Whether `message` already says where, so `description` does not say it twice: the
    /// truncation message names the byte the file ends at. (A computed test, not a stored flag:
    /// a stored one made every reader's `error == nil` check slower.)
    var messageNamesLocation: Bool {
        code == .truncated && message.hasPrefix(BinaryPropertyListTruncation.messagePrefix)
    }
}
