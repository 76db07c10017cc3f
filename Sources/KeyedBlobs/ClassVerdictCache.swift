import ArchivePayload
import KeyedArchive
import Synchronization

/// Remembers, class by class, whether an allow-list accepts it, so that a million archives of
/// the same few classes are not each checked from scratch.
///
/// `AllowListChecker` judges each object by its class alone: the class name (and, when the list
/// trusts archives, the chain the archive claims). So an archive whose every class is known to
/// pass is accepted without running the checker; the verdict for a class never seen is made by
/// the real checker on a one-object archive of that class, then kept. An archive with a refused
/// class goes through the full checker, which names paths and suggests additions. The result is
/// exactly the checker's; only the repeated work is gone (`AllowListChecker.check` rebuilds the
/// list's name spellings on every call, which is most of a conversion's time).
package final class ClassVerdictCache: Sendable {
    package let checker: AllowListChecker
    let verdicts = Mutex<[String: Bool]>([:])

    package init(checker: AllowListChecker) {
        self.checker = checker
    }

    /// Whether every object's class in `archive` is accepted, as `checker.check(archive).isAccepted`.
    package func accepts(_ archive: KeyedArchive) -> Bool {
        accepts(classes: Self.classes(of: archive))
    }

    /// Whether every decoded object's class in `index` is accepted: `accepts(_:)` on the archive
    /// the index was read from.
    package func accepts(_ index: KeyedArchiveClassIndex) -> Bool {
        accepts(classes: Self.usedClasses(index))
    }

    func accepts(classes: some Sequence<ArchivedClass>) -> Bool {
        classes.allSatisfy { accepts($0) }
    }

    /// The class descriptions of an archive's objects (inline objects have none).
    static func classes(of archive: KeyedArchive) -> some Sequence<ArchivedClass> {
        archive.objects.lazy.compactMap { $0?.archivedClass }
    }

    /// The class descriptions of an index's decoded objects (inline objects have none).
    static func usedClasses(_ index: KeyedArchiveClassIndex) -> [ArchivedClass] {
        var used = [Bool](repeating: false, count: index.classes.count)
        for slot in index.slots where slot >= 0 { used[Int(slot)] = true }
        return index.classes.indices.filter { used[$0] }.map { index.classes[$0] }
    }

    /// What a verdict on the class depends on: its name, and its claimed chain when trusted.
    package static func key(of archivedClass: ArchivedClass, trustsArchiveHierarchy: Bool) -> String {
        trustsArchiveHierarchy ? ([archivedClass.name] + archivedClass.chain).joined(separator: "\u{0}") : archivedClass.name
    }

    /// The distinct class keys of an archive's objects, sorted: archives with the same
    /// signature get the same verdict and the same suggested additions.
    package static func signature(of archive: KeyedArchive, trustsArchiveHierarchy: Bool) -> String {
        signature(classes: classes(of: archive), trustsArchiveHierarchy: trustsArchiveHierarchy)
    }

    /// `signature(of:trustsArchiveHierarchy:)` of the archive the index was read from.
    package static func signature(of index: KeyedArchiveClassIndex, trustsArchiveHierarchy: Bool) -> String {
        signature(classes: usedClasses(index), trustsArchiveHierarchy: trustsArchiveHierarchy)
    }

    static func signature(classes: some Sequence<ArchivedClass>, trustsArchiveHierarchy: Bool) -> String {
        Set(classes.map { key(of: $0, trustsArchiveHierarchy: trustsArchiveHierarchy) }).sorted().joined(separator: "\u{1}")
    }

    package func accepts(_ archivedClass: ArchivedClass) -> Bool {
        let key = Self.key(of: archivedClass, trustsArchiveHierarchy: checker.allowList.trustsArchiveHierarchy)
        if let known = verdicts.withLock({ $0[key] }) { return known }
        var builder = KeyedArchiveBuilder()
        let root = builder.object(archivedClass.name, chain: archivedClass.chain, hints: archivedClass.hints, fields: [])
        let verdict = checker.check(builder.archive(root: root)).isAccepted
        verdicts.withLock { $0[key] = verdict }
        return verdict
    }
}
