import PropertyList

/// Why a model cannot be read, and where.
public struct ModelError: InputError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .cannotRead`); see `ErrorCode`.
    /// Besides its own kinds, the shared kinds: `malformed` (the compressed cache, the archive or the XML breaks the
    /// rules of its format), `limitExceeded` (a limit in `ModelReadOptions`).
    public typealias Code = ErrorCode<ModelError>

    public static let codeNames: Set<String> = [
        "cannotRead", "notAModel", "malformed", "limitExceeded", "noMatchingVersion"
    ]

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

extension ErrorCode where Domain == ModelError {
    /// The file or folder is missing or unreadable.
    public static var cannotRead: Self { Self() }

    /// The input is not a model of any kind Archivist reads.
    public static var notAModel: Self { Self() }

    /// A `.momd` has no version whose entity hashes match the store's.
    public static var noMatchingVersion: Self { Self() }
}
