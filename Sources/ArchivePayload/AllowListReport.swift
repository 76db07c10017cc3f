import KeyedArchive

/// What an allow-list check found in one archive.
public struct AllowListReport: Sendable, Hashable {
    /// An object whose class the transformer would refuse.
    public struct Violation: Sendable, Hashable {
        /// The class as written in the archive.
        public var className: String
        /// The class as a person reads it (demangled).
        public var readableClassName: String
        /// The object's UID.
        public var uid: Int
        /// The path from the root, such as `root.NS.objects[3].tintColor`.
        public var path: String
        /// The hierarchy the decision was made on.
        public var judgedChain: [String]
        /// Why it was refused, in words.
        public var reason: String
    }

    /// Something a user should know that does not make the check fail.
    public struct Warning: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            /// A string, number, data or date stored as a plain plist value, allowed though not listed.
            case implicitPlistType
            /// The list names NSObject, which lets every class through.
            case bypass
            /// The archive claims a superclass the built-in hierarchy does not confirm.
            case untrustedHierarchy
        }

        public var kind: Kind
        public var message: String
        public var uid: Int?
        public var path: String?
    }

    /// Why a blob written by NSArchiver is refused whatever its classes: no secure unarchiver
    /// (`NSSecureUnarchiveFromDataTransformer`, `NSKeyedUnarchiver` with secure coding) reads a
    /// typedstream at all.
    public struct TypedStreamRefusal: Sendable, Hashable {
        /// `big` or `little`.
        public var byteOrder: String
        /// The writer's system version (1000 for every Mac OS X writer).
        public var systemVersion: Int
        /// The classes of the stream's objects, in order of first appearance.
        public var classes: [String]

        public init(byteOrder: String, systemVersion: Int, classes: [String]) {
            self.byteOrder = byteOrder
            self.systemVersion = systemVersion
            self.classes = classes
        }
    }

    /// Whether the transformer would accept the whole graph: every class allowed, and the blob
    /// a keyed archive.
    public var isAccepted: Bool { violations.isEmpty && typedStream == nil }
    /// Whether every object's class is allowed, whichever archiver wrote the blob: what decides
    /// whether its objects may be turned into a payload.
    public var classesAccepted: Bool { violations.isEmpty }
    /// Set when the blob is an NSArchiver typedstream, which is refused whatever its classes.
    public var typedStream: TypedStreamRefusal?
    public var violations: [Violation]
    public var warnings: [Warning]
    /// The smallest set of classes to add with `--allow` for the blob to pass.
    public var suggestedAdditions: [String]
    /// The allow-list that was applied.
    public var allowList: AllowList

    /// The `allowedTopLevelClasses` override that accepts this blob, to paste into a
    /// `NSSecureUnarchiveFromDataTransformer` subclass.
    public var swiftSnippet: String {
        let extra = suggestedAdditions.map(Self.swiftTypeReference)
        let defaults = Set(AllowList.transformerDefaultClasses)
        let given = allowList.classes
        let startsFromDefault = defaults.isSubset(of: Set(given))
        let listed: [String]
        if startsFromDefault {
            listed = given.filter { !defaults.contains($0) }.map(Self.swiftTypeReference) + extra
        } else {
            listed = given.map(Self.swiftTypeReference) + extra
        }
        let body: String
        if startsFromDefault {
            body = listed.isEmpty ? "super.allowedTopLevelClasses" : "super.allowedTopLevelClasses + [\(listed.joined(separator: ", "))]"
        } else {
            body = "[\(listed.joined(separator: ", "))]"
        }
        return """
            override class var allowedTopLevelClasses: [AnyClass] {
                \(body)
            }
            """
    }

    /// `UIColor.self`, or for a Swift class `SerializableColor.self` (its module is the app's).
    static func swiftTypeReference(_ name: String) -> String {
        let readable = SwiftClassName.demangle(name) ?? name
        let last = readable.split(separator: ".").last.map(String.init) ?? readable
        return "\(last).self"
    }
}
