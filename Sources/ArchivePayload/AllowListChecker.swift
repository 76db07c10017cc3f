import KeyedArchive
import PropertyList

/// Checks every object of an archive against an allow-list, with the semantics of
/// `NSKeyedUnarchiver`'s secure decoding as `NSSecureUnarchiveFromDataTransformer` uses it.
///
/// - The allowed set applies to every object in the graph, not only the root.
/// - An object passes when its class, or a superclass in the real hierarchy, is allowed.
/// - Strings, numbers, data and dates stored as plain plist values pass with a warning, in the
///   words Apple logs.
/// - Every decoded object is checked, including ones Foundation's own unarchiver would skip
///   when they reuse a class description.
public struct AllowListChecker: Sendable {
    public var allowList: AllowList
    public var hierarchy: ClassHierarchy

    public init(allowList: AllowList = .transformerDefault, hierarchy: ClassHierarchy = .apple) {
        self.allowList = allowList
        self.hierarchy = hierarchy
    }

    /// The hierarchy a class is judged on.
    func chain(of object: ArchivedObject) -> [String] {
        guard let archivedClass = object.archivedClass else { return [object.className] }
        return judgedChain(of: archivedClass)
    }

    /// The hierarchy a class description is judged on: the archive's chain when it is trusted,
    /// else the real one.
    func judgedChain(of archivedClass: ArchivedClass) -> [String] {
        if allowList.trustsArchiveHierarchy { return [archivedClass.name] + archivedClass.chain.filter { $0 != archivedClass.name } }
        return hierarchy.chain(of: archivedClass.name) ?? hierarchy.chain(of: archivedClass.readableName) ?? [archivedClass.name]
    }

    /// Whether `check(_:)` refuses no object of an archive whose objects are of `classes` (and
    /// inline plist types, which it only warns about): its `classesAccepted`.
    public func acceptsEveryClass(_ classes: [ArchivedClass]) -> Bool {
        let spellings = allowList.spellings
        return classes.allSatisfy { archivedClass in
            judgedChain(of: archivedClass).contains { spellings.contains($0) || SwiftClassName.demangle($0).map(spellings.contains) == true }
        }
    }

    public func check(_ archive: KeyedArchive) -> AllowListReport {
        let spellings = allowList.spellings
        func allowed(_ name: String) -> Bool {
            spellings.contains(name) || SwiftClassName.demangle(name).map(spellings.contains) == true
        }
        // Paths are only needed to report an object; most archives have nothing to report.
        var builtPaths: ArchivePaths?
        func paths() -> ArchivePaths {
            if let builtPaths { return builtPaths }
            let made = ArchivePaths(archive)
            builtPaths = made
            return made
        }
        var violations: [AllowListReport.Violation] = []
        var warnings: [AllowListReport.Warning] = []
        if allowList.isBypassed {
            warnings.append(.init(kind: .bypass, message: "the list names NSObject, which every class inherits from: the check is bypassed and any class is accepted"))
        }
        var warnedPlistTypes: Set<String> = []
        // Whether each inline plist type is allowed, worked out once per type name.
        var inlineVerdicts: [(name: String, allowed: Bool)] = []
        // Verdicts by class description: every object of a class shares its class's verdict.
        var verdicts: [Int: Bool] = [:]
        // Classes that passed, met most recently: compared by identity before hashing a UID.
        var recentlyPassed: [ArchivedClass] = []
        var nextRecent = 0
        func passed(_ archivedClass: ArchivedClass) {
            if recentlyPassed.count < 8 {
                recentlyPassed.append(archivedClass)
            } else {
                recentlyPassed[nextRecent] = archivedClass
                nextRecent = (nextRecent + 1) % 8
            }
        }
        // Objects are read in place: copying each out would retain and release its fields.
        archive.objects.withUnsafeBufferPointer { objects in
            for index in objects.indices {
                guard let archivedClass = objects[index]?.archivedClass else {
                    // An inline plist value: Foundation allows it and logs a warning unless listed.
                    guard let name = objects[index]?.className else { continue }
                    let allowedType: Bool
                    if let known = inlineVerdicts.first(where: { $0.name == name }) {
                        allowedType = known.allowed
                    } else {
                        let chain = hierarchy.chain(of: name) ?? [name]
                        allowedType = chain.contains(where: allowed)
                        inlineVerdicts.append((name, allowedType))
                    }
                    if !allowedType, !warnedPlistTypes.contains(name) {
                        let uid = objects[index]?.uid ?? index
                        warnedPlistTypes.insert(name)
                        warnings.append(.init(kind: .implicitPlistType,
                                              message: "allowed unarchiving safe plist type '\(name)' for key '\(paths().lastKey(of: uid))', even though it was not explicitly included in the allowed classes set",
                                              uid: uid, path: paths().path(to: uid)))
                    }
                    continue
                }
                if recentlyPassed.contains(where: { $0 === archivedClass }) { continue }
                if let verdict = verdicts[archivedClass.uid], verdict {
                    passed(archivedClass)
                    continue
                }
                guard let object = objects[index] else { continue }
                let judged = chain(of: object)
                let passes = judged.contains(where: allowed)
                verdicts[archivedClass.uid] = passes
                if passes {
                    passed(archivedClass)
                    continue
                }
                let path = paths().path(to: object.uid)
                var reason = "\(archivedClass.readableName) is not in the allowed classes"
                let claimed = archivedClass.chain.filter { $0 != archivedClass.name }
                if !allowList.trustsArchiveHierarchy, claimed.contains(where: allowed) {
                    reason += "; the archive claims it inherits from \(claimed.filter(allowed).joined(separator: ", ")), which the real class hierarchy does not confirm (--trust-archive-hierarchy believes the archive)"
                    warnings.append(.init(kind: .untrustedHierarchy, message: reason, uid: object.uid, path: path))
                } else if hierarchy.knows(archivedClass.name) {
                    reason += " (nor is any of its superclasses: \(judged.dropFirst().joined(separator: ", ")))"
                }
                violations.append(.init(className: archivedClass.name, readableClassName: archivedClass.readableName,
                                        uid: object.uid, path: path, judgedChain: judged, reason: reason))
            }
        }
        var report = AllowListReport(violations: violations, warnings: warnings,
                                     suggestedAdditions: minimalAdditions(for: violations), allowList: allowList)
        if let nib = archive.nibArchive {
            report.nibArchive = .init(coderVersion: Int(nib.header.coderVersion), classes: nib.classCounts)
        }
        if let stream = archive.typedStream {
            report.typedStream = .init(byteOrder: stream.header.byteOrder.rawValue, systemVersion: stream.header.systemVersion,
                                       classes: stream.classCounts.map(\.name))
        }
        return report
    }

    /// The report of an archive whose objects all pass without a warning that names an object,
    /// from its classes alone; nil when `check(_:)` must look at the archive to report (an
    /// object refused, or an inline type warned about, each with its path).
    ///
    /// When it gives a report, it is the one `check(_:)` gives for the same archive.
    public func acceptedReport(_ index: KeyedArchiveClassIndex) -> AllowListReport? {
        let spellings = allowList.spellings
        func allowed(_ name: String) -> Bool {
            spellings.contains(name) || SwiftClassName.demangle(name).map(spellings.contains) == true
        }
        var verdicts = [Bool?](repeating: nil, count: index.classes.count)
        for (slot, archivedClass) in index.classes.enumerated() {
            verdicts[slot] = judgedChain(of: archivedClass).contains(where: allowed)
        }
        // Per inline kind (NSString, NSNumber, NSData, NSDate): whether it is listed.
        var inlineVerdicts = [Bool?](repeating: nil, count: 4)
        var everyObjectPasses = true
        for slot in index.slots where slot != KeyedArchiveClassIndex.notDecoded {
            if slot >= 0 {
                if verdicts[Int(slot)] == true { continue }
                everyObjectPasses = false
                break
            }
            let kind = Int(-slot - 2)
            if inlineVerdicts[kind] == nil {
                let name = KeyedArchiveClassIndex.inlineClassName(slot)
                inlineVerdicts[kind] = (hierarchy.chain(of: name) ?? [name]).contains(where: allowed)
            }
            // A type not listed is allowed with a warning that names the object's key: `check`
            // words it.
            if inlineVerdicts[kind] == false {
                everyObjectPasses = false
                break
            }
        }
        guard everyObjectPasses else { return nil }
        var warnings: [AllowListReport.Warning] = []
        if allowList.isBypassed {
            warnings.append(.init(kind: .bypass, message: "the list names NSObject, which every class inherits from: the check is bypassed and any class is accepted"))
        }
        return AllowListReport(violations: [], warnings: warnings, suggestedAdditions: [], allowList: allowList)
    }

    /// The fewest classes whose allowing clears every violation: a greedy cover over each
    /// refused class and its real superclasses (never NSObject, which would allow everything).
    func minimalAdditions(for violations: [AllowListReport.Violation]) -> [String] {
        var uncovered = Set(violations.map(\.className))
        var chains: [String: [String]] = [:]
        for v in violations { chains[v.className] = v.judgedChain.filter { $0 != "NSObject" } }
        var chosen: [String] = []
        while !uncovered.isEmpty {
            var best: (name: String, covers: Set<String>)?
            for name in uncovered.sorted() {
                for candidate in chains[name] ?? [name] {
                    let covers = Set(uncovered.filter { (chains[$0] ?? [$0]).contains(candidate) })
                    if best.map({ covers.count > $0.covers.count }) ?? true { best = (candidate, covers) }
                }
            }
            guard let pick = best, !pick.covers.isEmpty else { break }
            chosen.append(SwiftClassName.demangle(pick.name) ?? pick.name)
            uncovered.subtract(pick.covers)
        }
        return chosen
    }
}
