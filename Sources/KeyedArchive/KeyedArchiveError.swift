import PropertyList
import TypedStream
import NIBArchive

/// Why bytes are not a readable keyed archive, and where.
public struct KeyedArchiveError: InputError, RequestError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .propertyList`); see `ErrorCode`.
    /// Besides its own kinds, the shared kinds: `malformed` (a reference, class description or object breaks the
    /// archive's rules), `limitExceeded` (a configured limit), `invalidRequest` (what was asked of the archive
    /// cannot be done: a rename to a name that is no class name, a format that cannot hold an archive).
    public typealias Code = ErrorCode<KeyedArchiveError>

    public static let codeNames: Set<String> = [
        "propertyList", "notAnArchive", "malformed", "limitExceeded", "invalidRequest", "typedStream", "nibArchive"
    ]

    public var code: Code
    public var message: String
    /// The object being read, by UID, when the problem is inside one.
    public var objectUID: Int?
    /// The path from the root, such as `root.NS.objects[3].tintColor`.
    public var keyPath: String?
    /// The property-list error, for `.propertyList`.
    public var underlying: PropertyListError?
    /// The typedstream error, for `.typedStream`.
    public var underlyingTypedStream: TypedStreamError?
    /// The NIBArchive error, for `.nibArchive`.
    public var underlyingNIBArchive: NIBArchiveError?

    public init(_ code: Code, _ message: String, objectUID: Int? = nil, keyPath: String? = nil, underlying: PropertyListError? = nil) {
        self.code = code
        self.message = message
        self.objectUID = objectUID
        self.keyPath = keyPath
        self.underlying = underlying
    }

    /// A typedstream that cannot be read, worded as the typedstream reader words it.
    public init(typedStream error: TypedStreamError) {
        self.init(error.code == .limitExceeded ? .limitExceeded : .typedStream, error.description)
        underlyingTypedStream = error
    }

    /// A compiled nib that cannot be read, worded as the NIBArchive reader words it.
    public init(nibArchive error: NIBArchiveError) {
        self.init(error.code == .limitExceeded ? .limitExceeded : .nibArchive, "compiled nib (NIBArchive): " + error.description)
        underlyingNIBArchive = error
    }

    public var description: String {
        if let underlying { return underlying.description }
        var text = message
        if let objectUID { text += " at object #\(objectUID)" }
        if let keyPath { text += " (in \(keyPath))" }
        return text
    }
}

extension ErrorCode where Domain == KeyedArchiveError {
    /// The bytes are not a property list at all; `underlying` says why.
    public static var propertyList: Self { Self() }

    /// The plist is not an NSKeyedArchiver archive (`$archiver`, `$version`, `$top`, `$objects`).
    public static var notAnArchive: Self { Self() }

    /// The bytes are an NSArchiver typedstream that cannot be read; `underlyingTypedStream`
    /// says why and where.
    public static var typedStream: Self { Self() }

    /// The bytes are a compiled nib (NIBArchive) that cannot be read; `underlyingNIBArchive`
    /// says why and where.
    public static var nibArchive: Self { Self() }
}
