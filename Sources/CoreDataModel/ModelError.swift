/// Why a model cannot be read, and where.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is, for callers to match (`error.code == .cannotRead`).
    ///
    /// A struct with a static member per kind rather than an enum, as swift-protobuf's
    /// `SwiftProtobufError.Code`: a new kind is then an addition, not a change that breaks every
    /// exhaustive `switch` over the codes. Match with `==`, or `switch` with a `default`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        private enum Wrapped: String, Sendable, Hashable {
            case cannotRead, notAModel, malformed, limitExceeded, noMatchingVersion
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

        /// The member's name (`cannotRead`).
        public var rawValue: String { wrapped.rawValue }

        /// The member's name, as `rawValue`.
        public var description: String { wrapped.rawValue }

        /// The file or folder is missing or unreadable.
        public static var cannotRead: Code { Code(.cannotRead) }

        /// The input is not a model of any kind Archivist reads.
        public static var notAModel: Code { Code(.notAModel) }

        /// The compressed cache, the archive or the XML breaks the rules of its format.
        public static var malformed: Code { Code(.malformed) }

        /// A limit in `ModelReadOptions` was reached.
        public static var limitExceeded: Code { Code(.limitExceeded) }

        /// A `.momd` has no version whose entity hashes match the store's.
        public static var noMatchingVersion: Code { Code(.noMatchingVersion) }
    }

    public var code: Code
    public var message: String
    /// What was being read: a path, or `Z_MODELCACHE` of a store.
    public var source: String?
    /// Where in it: `entity Group, attribute darkColor`, `object #12`, `line 4`, `byte 812`.
    public var location: String?

    public init(_ code: Code, _ message: String, source: String? = nil, location: String? = nil) {
        self.code = code
        self.message = message
        self.source = source
        self.location = location
    }

    /// `<what> at <where>`; the source is left to the caller's prefix.
    public var description: String {
        location.map { "\(message) at \($0)" } ?? message
    }

    package func from(_ source: String) -> ModelError {
        var copy = self
        if copy.source == nil { copy.source = source }
        return copy
    }
}
