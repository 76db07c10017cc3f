import KeyedArchive

/// The classes an `NSSecureUnarchiveFromDataTransformer` (or an `NSKeyedUnarchiver` with
/// `requiresSecureCoding`) lets through.
///
/// Names match in every form a class can be named: as written in the archive, as Swift's
/// `Module.Class`, and as the mangled runtime name (`_TtC8Eventail17SerializableColor`).
public struct AllowList: Sendable, Hashable {
    /// The allowed class names, as given.
    public var classes: [String]
    /// Judge subclasses by the archive's own `$classes` chain instead of the built-in hierarchy.
    /// Whoever wrote the blob controls that chain, so this is off unless asked for.
    public var trustsArchiveHierarchy: Bool

    public init(classes: [String], trustsArchiveHierarchy: Bool = false) {
        self.classes = classes
        self.trustsArchiveHierarchy = trustsArchiveHierarchy
    }

    /// `NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses` by default.
    public static let transformerDefaultClasses = ["NSArray", "NSDictionary", "NSSet", "NSString", "NSNumber",
                                                   "NSDate", "NSData", "NSURL", "NSUUID", "NSNull"]

    /// The transformer's default list.
    public static let transformerDefault = AllowList(classes: transformerDefaultClasses)

    /// `super.allowedTopLevelClasses + [X.self, …]`: the default list plus `extra`.
    public static func transformerDefault(adding extra: [String]) -> AllowList {
        AllowList(classes: transformerDefaultClasses + extra.filter { !transformerDefaultClasses.contains($0) })
    }

    /// Every spelling of each allowed class.
    var spellings: Set<String> {
        var out: Set<String> = []
        for name in classes {
            out.insert(name)
            if let demangled = SwiftClassName.demangle(name) { out.insert(demangled) }
            if let mangled = SwiftClassName.mangle(name) { out.insert(mangled) }
        }
        return out
    }

    /// Whether listing NSObject lets every class through.
    public var isBypassed: Bool { spellings.contains("NSObject") }
}
