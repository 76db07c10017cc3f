import KeyedArchive
import PropertyList

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

    /// Why a compiled nib is refused whatever its classes: it is no secure-coding blob. A nib is
    /// loaded by `UINib`/`NSNib`, whose decoder instantiates every class the nib names, never
    /// through a secure unarchiver with an allow-list.
    public struct NIBArchiveRefusal: Sendable, Hashable {
        /// The header's coder version (10 for current Xcode).
        public var coderVersion: Int
        /// The classes of the nib's objects with their counts, in order of first appearance.
        public var classes: [(name: String, count: Int)]

        public init(coderVersion: Int, classes: [(name: String, count: Int)]) {
            self.coderVersion = coderVersion
            self.classes = classes
        }

        public static func == (a: Self, b: Self) -> Bool {
            a.coderVersion == b.coderVersion && a.classes.elementsEqual(b.classes) { $0.name == $1.name && $0.count == $1.count }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(coderVersion)
            for c in classes { hasher.combine(c.name); hasher.combine(c.count) }
        }
    }

    /// Whether the transformer would accept the whole graph: every class allowed, and the blob
    /// a keyed archive.
    public var isAccepted: Bool { violations.isEmpty && typedStream == nil && nibArchive == nil }
    /// Set when the blob is a compiled nib, which is no secure-coding blob whatever its classes.
    public var nibArchive: NIBArchiveRefusal?
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

    /// How many refused objects a refusal names before it counts the rest.
    public static let namedViolationLimit = 8

    /// The refused objects as a refusal names them, `NSColor (#10) at root.color, …`, the first
    /// `namedViolationLimit` by name and the rest counted (`and 9,992 more`): a blob of ten
    /// thousand refused objects is still one readable line.
    public func violationList(showingUIDs: Bool = false) -> String {
        let named = violations.prefix(Self.namedViolationLimit).map { v in
            showingUIDs ? "\(v.readableClassName) (#\(v.uid)) at \(v.path)" : "\(v.readableClassName) at \(v.path)"
        }.joined(separator: ", ")
        let rest = violations.count - Self.namedViolationLimit
        return rest > 0 ? "\(named) and \(CountText.number(rest)) more" : named
    }

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
