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

    /// Whether the transformer would accept the whole graph.
    public var isAccepted: Bool { violations.isEmpty }
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
