import KeyedArchive

/// The classes a set of archives needs an `NSSecureUnarchiveFromDataTransformer` to allow
/// beyond a list it already has, and no more.
///
/// Each archive is checked against that list (by default an empty one, so every object's class
/// is a violation); the classes are then the checker's smallest cover of the violations (a
/// class, or one of its real superclasses, never NSObject), followed by the plain plist types
/// stored inline (NSString, NSNumber, NSData, NSDate) that the list does not name, which
/// Foundation lets through with a warning unless they are listed. `codegen` asks for the
/// classes beyond `AllowList.transformerDefault`, which its transformer adds to
/// `super.allowedTopLevelClasses`.
public struct RequiredClasses: Sendable {
    let checker: AllowListChecker
    /// One violation per class met, for the cover.
    var violations: [String: AllowListReport.Violation] = [:]
    /// Inline plist types met.
    var inlineTypes: Set<String> = []
    /// Sets of class names already checked: an archive of the same classes adds nothing.
    var knownSignatures: Set<[String]> = []

    /// - Parameters:
    ///   - allowList: the classes already allowed; none by default.
    ///   - hierarchy: the class hierarchy that decides which subclasses pass.
    public init(beyond allowList: AllowList = AllowList(classes: []), hierarchy: ClassHierarchy = .apple) {
        checker = AllowListChecker(allowList: allowList, hierarchy: hierarchy)
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

    /// The classes to allow, cover first, then inline plist types that neither the cover nor
    /// the list already allowed names.
    public var classes: [String] {
        let cover = checker.minimalAdditions(for: violations.keys.sorted().compactMap { violations[$0] })
        let covered = Set(cover).union(checker.allowList.spellings)
        return cover + inlineTypes.sorted().filter { !covered.contains($0) }
    }
}
