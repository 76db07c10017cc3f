import KeyedArchive

/// The classes a set of archives needs an `NSSecureUnarchiveFromDataTransformer` to allow, and
/// no more: what a transformer written for exactly those values lists.
///
/// Each archive is checked against an empty allow-list, so every object's class is a
/// violation; the classes are then the checker's smallest cover of all of them (a class, or one
/// of its real superclasses, never NSObject), followed by the plain plist types stored inline
/// (NSString, NSNumber, NSData, NSDate), which Foundation lets through with a warning unless
/// they are listed.
public struct RequiredClasses: Sendable {
    let checker: AllowListChecker
    /// One violation per class met, for the cover.
    var violations: [String: AllowListReport.Violation] = [:]
    /// Inline plist types met.
    var inlineTypes: Set<String> = []
    /// Sets of class names already checked: an archive of the same classes adds nothing.
    var knownSignatures: Set<[String]> = []

    public init(hierarchy: ClassHierarchy = .apple) {
        checker = AllowListChecker(allowList: AllowList(classes: []), hierarchy: hierarchy)
    }

    /// Adds the classes of one archive.
    public mutating func add(_ archive: KeyedArchive) {
        var names: Set<String> = []
        for object in archive.objects {
            guard let object else { continue }
            if object.archivedClass == nil {
                inlineTypes.insert(object.className)
            } else {
                names.insert(object.className)
            }
        }
        guard knownSignatures.insert(names.sorted()).inserted else { return }
        for violation in checker.check(archive).violations where violations[violation.className] == nil {
            violations[violation.className] = violation
        }
    }

    /// The classes to allow, cover first, then inline plist types the cover does not include.
    public var classes: [String] {
        let cover = checker.minimalAdditions(for: violations.keys.sorted().compactMap { violations[$0] })
        let covered = Set(cover)
        return cover + inlineTypes.sorted().filter { !covered.contains($0) }
    }
}
