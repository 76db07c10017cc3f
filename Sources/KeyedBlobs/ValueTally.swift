import ArchivePayload
import Foundation
import KeyedArchive

/// What the values of one column hold, counted value by value: kinds, formats, classes, and
/// the allow-list's verdict on every archive. A scan's report on a column, whatever holds it.
public struct ValueTally<Key: Hashable & Sendable>: Sendable {
    public var rowCount = 0
    /// Values by kind.
    public var kinds: [StoredValueKind: Int] {
        get {
            var counts: [StoredValueKind: Int] = [:]
            for kind in StoredValueKind.allCases where countsByKind[kind.ordinal] > 0 { counts[kind] = countsByKind[kind.ordinal] }
            return counts
        }
        set {
            countsByKind = Array(repeating: 0, count: StoredValueKind.allCases.count)
            for (kind, count) in newValue { countsByKind[kind.ordinal] = count }
        }
    }
    /// Values by kind, in the order of `StoredValueKind.allCases`: counted for every value,
    /// without hashing.
    var countsByKind = Array(repeating: 0, count: StoredValueKind.allCases.count)
    /// Finer labels within a kind: `PNG image`, `binary property list`, `16 bytes`.
    public var formats: [String: Int] {
        get {
            guard let pending = pendingFormat else { return countedFormats }
            var all = countedFormats
            all[pending.label, default: 0] += pending.count
            return all
        }
        set {
            countedFormats = newValue
            pendingFormat = nil
        }
    }
    /// `formats`, but for the last label counted, whose count runs on in `pendingFormat` until
    /// another label comes: a column's values mostly have one, and a run is counted without
    /// hashing the label each time.
    var countedFormats: [String: Int] = [:]
    var pendingFormat: (label: String, count: Int)?
    /// Values with Core Data's `0x01` inline external-storage header.
    public var inlineFramed = 0
    /// External references whose file is missing.
    public var missingExternalFiles = 0
    /// For each class (readable name), how many values contain at least one object of it.
    public var classes: [String: Int] = [:]
    /// Keyed archives the allow-list accepts, and refuses.
    public var accepted = 0
    public var refused = 0
    /// For each refused class, how many values it made the allow-list refuse.
    public var refusedClasses: [String: Int] = [:]
    /// How many refused values each class would accept if allowed.
    public var suggestionCounts: [String: Int] = [:]
    /// A few rows worth looking at: unreadable values, refusals, external references.
    public var examples: [Example] = []
    /// Refusals already explained, by the set of classes that caused them.
    var refusals: [String: Refusal] = [:]
    /// What the last class index counted came to, for the next value with the same classes
    /// and layout (a column of one kind of archive gives the same index row after row).
    var lastIndex = IndexSummary(classes: [], slots: [], names: [])
    /// The last format detail counted, and its label.
    var lastFormat: (detail: String, label: String)?

    /// A class index's readable class names, verdict and signature, once worked out.
    struct IndexSummary: Sendable {
        var classes: [ArchivedClass]
        var slots: [Int32]
        var names: [String]
        /// The judge's verdicts the verdict and signature are from (`AllowListJudge.verdicts`).
        var judge: ObjectIdentifier?
        var accepted: Bool?
        var signature: String?
        /// For a refusal: what it says, and whether its message is among the examples already.
        var refusal: Refusal?
        var exampled = false

        /// Whether it is the summary of `index` (an index has a slot per element of `$objects`,
        /// so the empty summary describes none).
        func describes(_ index: KeyedArchiveClassIndex) -> Bool {
            !slots.isEmpty && classes.count == index.classes.count && zip(classes, index.classes).allSatisfy { $0 === $1 } && slots == index.slots
        }
    }

    /// A row the report points at.
    public struct Example: Sendable, Hashable {
        public var key: Key
        public var kind: StoredValueKind
        public var message: String
    }

    /// What the allow-list said about archives with one set of classes.
    struct Refusal: Sendable {
        var accepted: Bool
        var classes: [String]
        var suggestions: [String]
        var message: String
    }

    public init() {}

    /// Counts one value.
    ///
    /// - Parameters:
    ///   - stored: the value, as the classifier read it.
    ///   - key: the row's key, kept for the examples.
    ///   - judge: the list archives are judged by; nil when the app's own code judges them
    ///     (classes are counted, no verdict).
    ///   - maximumExamples: how many example rows to keep.
    ///   - externalFileExists: whether an external reference's file is there (Core Data
    ///     stores); nil where there are no such files.
    public mutating func record(_ stored: StoredValue, key: Key, judge: AllowListJudge?, maximumExamples: Int,
                                externalFileExists: ((ExternalBinaryStorage.Reference) -> Bool)? = nil) {
        rowCount += 1
        countsByKind[stored.kind.ordinal] += 1
        if stored.framing == .inline { inlineFramed += 1 }
        func example(_ message: String) {
            // One example per distinct message: the first row that shows it.
            if examples.count < maximumExamples, !examples.contains(where: { $0.message == message }) {
                examples.append(Example(key: key, kind: stored.kind, message: message))
            }
        }
        switch stored.kind {
        case .image, .propertyList, .other:
            if stored.kind == .other, stored.payload?.count == 16 {
                // Core Data's UUID attributes; random bytes may also start like a zlib header.
                countFormat("16 bytes (a UUID's size)")
            } else if let detail = stored.detail {
                // `PNG image 8×8` → `PNG image`: sizes vary row by row (and repeat: the last
                // detail's label is kept for the next).
                let label: String
                if let last = lastFormat, last.detail == detail {
                    label = last.label
                } else {
                    label = detail.range(of: " image").map { String(detail[..<$0.upperBound]) } ?? detail
                    lastFormat = (detail, label)
                }
                countFormat(label)
            } else if stored.payload != nil {
                countFormat("unrecognized bytes")
            }
        case .externalReference:
            if let reference = stored.reference, let exists = externalFileExists, !exists(reference) {
                missingExternalFiles += 1
                example("external reference to \(reference), whose file is missing")
            } else {
                example("external reference to \(stored.reference?.description ?? "a file")")
            }
        case .unreadable:
            example(stored.detail ?? "unreadable")
        case .typedStream:
            // No secure unarchiver reads a typedstream: refused whatever its classes. The classes
            // a keyed archive of it would still need are counted as a keyed archive's are.
            guard let archive = stored.archive else { break }
            // The stream's own classes, not the run tables its keyed form adds.
            let names = archive.sourceClassCounts.map(\.name)
            for name in names { classes[name, default: 0] += 1 }
            guard let judge else { break }
            refused += 1
            let listed = names.joined(separator: ", ")
            if judge.verdicts.accepts(archive) {
                example("an NSArchiver typedstream (\(listed)), which no secure unarchiver reads: migrate it (--to archive for NSSecureUnarchiveFromData, or --to json)")
                break
            }
            let signature = "typedstream\u{0}" + ClassVerdictCache.signature(of: archive, trustsArchiveHierarchy: judge.checker.allowList.trustsArchiveHierarchy)
            let refusal: Refusal
            if let known = refusals[signature] {
                refusal = known
            } else {
                let verdict = judge.checker.check(archive)
                refusal = Refusal(accepted: false, classes: Array(Set(verdict.violations.map(\.readableClassName))).sorted(),
                                  suggestions: verdict.suggestedAdditions,
                                  message: "an NSArchiver typedstream (\(listed)), which no secure unarchiver reads; as a keyed archive it would need --allow " + verdict.suggestedAdditions.joined(separator: ","))
                refusals[signature] = refusal
            }
            for name in refusal.classes { refusedClasses[name, default: 0] += 1 }
            for name in refusal.suggestions { suggestionCounts[name, default: 0] += 1 }
            example(refusal.message)
        case .keyedArchiveBinary, .keyedArchiveXML:
            let trustsHierarchy = judge?.checker.allowList.trustsArchiveHierarchy ?? false
            let archive = stored.archive
            let signature: () -> String
            if let index = stored.classIndex {
                // The summary is updated in place: copying it out would retain each of its parts.
                if !lastIndex.describes(index) {
                    lastIndex = IndexSummary(classes: index.classes, slots: index.slots, names: Self.readableClassNames(index))
                }
                for name in lastIndex.names { classes[name, default: 0] += 1 }
                guard let judge else { break }
                let judgeID = ObjectIdentifier(judge.verdicts)
                if lastIndex.judge != judgeID {
                    lastIndex.judge = judgeID
                    lastIndex.accepted = judge.verdicts.accepts(index)
                    lastIndex.signature = nil
                    lastIndex.refusal = nil
                    lastIndex.exampled = false
                }
                if lastIndex.accepted == true {
                    accepted += 1
                    break
                }
                if let refusal = lastIndex.refusal, lastIndex.exampled || examples.count >= maximumExamples {
                    // The same refusal as the row before, already explained and shown.
                    count(refusal)
                    break
                }
                let known = lastIndex.signature ?? ClassVerdictCache.signature(of: index, trustsArchiveHierarchy: trustsHierarchy)
                lastIndex.signature = known
                signature = { known }
            } else if let archive {
                var seen: Set<String> = []
                for object in archive.decodedObjects where seen.insert(object.readableClassName).inserted {
                    classes[object.readableClassName, default: 0] += 1
                }
                guard let judge else { break }
                // Most archives pass on classes already judged. A refusal depends only on the set of
                // classes, so the full check runs once per set; its paths are kept for the example.
                guard !judge.verdicts.accepts(archive) else {
                    accepted += 1
                    break
                }
                signature = { ClassVerdictCache.signature(of: archive, trustsArchiveHierarchy: trustsHierarchy) }
            } else {
                break
            }
            let refusal: Refusal
            if let known = refusals[signature()] {
                refusal = known
            } else if let explained = archive ?? stored.payload.flatMap({ try? KeyedArchive(data: $0, options: stored.readOptions ?? .default) }),
                      let judge {
                // The paths of a refusal need the objects: a value read for its classes only is
                // decoded here, once per set of classes.
                let verdict = judge.checker.check(explained)
                refusal = Refusal(accepted: verdict.isAccepted,
                                  classes: Array(Set(verdict.violations.map(\.readableClassName))).sorted(),
                                  suggestions: verdict.suggestedAdditions,
                                  message: "refused by the allow-list: " + verdict.violationList())
                refusals[signature()] = refusal
            } else {
                break
            }
            count(refusal)
            if !refusal.accepted { example(refusal.message) }
            if stored.classIndex != nil {
                lastIndex.refusal = refusal
                lastIndex.exampled = examples.contains { $0.message == refusal.message }
            }
        case .json, .text, .number, .null:
            break
        }
    }

    /// Counts one value with the format `label`.
    mutating func countFormat(_ label: String) {
        if let pending = pendingFormat {
            if pending.label == label {
                pendingFormat = (pending.label, pending.count + 1)
                return
            }
            countedFormats[pending.label, default: 0] += pending.count
        }
        pendingFormat = (label, 1)
    }

    /// Counts a value the allow-list judged as `refusal` says (its example aside).
    mutating func count(_ refusal: Refusal) {
        guard !refusal.accepted else {
            accepted += 1
            return
        }
        refused += 1
        for name in refusal.classes { refusedClasses[name, default: 0] += 1 }
        for name in refusal.suggestions { suggestionCounts[name, default: 0] += 1 }
    }

    /// The readable name of each class an archive's decoded objects have, once each, in the
    /// order of the first object of each: what `decodedObjects` gives, read from the index.
    static func readableClassNames(_ index: KeyedArchiveClassIndex) -> [String] {
        var names: [String] = []
        var seenSlots: [Int32] = []
        for slot in index.slots where slot != KeyedArchiveClassIndex.notDecoded && !seenSlots.contains(slot) {
            seenSlots.append(slot)
            let name = slot >= 0 ? index.classes[Int(slot)].readableName : KeyedArchiveClassIndex.inlineClassName(slot)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Adds the counts of the rows after this tally's (a later slice of the same column):
    /// examples stay the first of each message, in row order.
    public mutating func merge(_ other: Self, maximumExamples: Int) {
        rowCount += other.rowCount
        for i in countsByKind.indices { countsByKind[i] += other.countsByKind[i] }
        countedFormats = formats.merging(other.formats, uniquingKeysWith: +)
        pendingFormat = nil
        inlineFramed += other.inlineFramed
        missingExternalFiles += other.missingExternalFiles
        classes.merge(other.classes, uniquingKeysWith: +)
        accepted += other.accepted
        refused += other.refused
        refusedClasses.merge(other.refusedClasses, uniquingKeysWith: +)
        suggestionCounts.merge(other.suggestionCounts, uniquingKeysWith: +)
        for example in other.examples where examples.count < maximumExamples && !examples.contains(where: { $0.message == example.message }) {
            examples.append(example)
        }
        refusals.merge(other.refusals) { mine, _ in mine }
    }

    /// Kinds present, in the order of `StoredValueKind.allCases`.
    public var kindCounts: [(kind: StoredValueKind, count: Int)] {
        StoredValueKind.allCases.compactMap { kind in countsByKind[kind.ordinal] > 0 ? (kind, countsByKind[kind.ordinal]) : nil }
    }

    /// Keyed archives of either format.
    public var keyedArchiveCount: Int { countsByKind[StoredValueKind.keyedArchiveBinary.ordinal] + countsByKind[StoredValueKind.keyedArchiveXML.ordinal] }
    /// NSArchiver typedstreams, every one refused.
    public var typedStreamCount: Int { countsByKind[StoredValueKind.typedStream.ordinal] }

    /// Classes by count, most first, then by name.
    public var classCounts: [(name: String, count: Int)] { Self.sorted(classes) }
    public var refusedClassCounts: [(name: String, count: Int)] { Self.sorted(refusedClasses) }
    public var formatCounts: [(name: String, count: Int)] { Self.sorted(formats) }
    /// Classes to add (`--allow`) so that every archive here is accepted, most needed first.
    public var suggestedAdditions: [String] { Self.sorted(suggestionCounts).map(\.name) }

    static func sorted(_ counts: [String: Int]) -> [(name: String, count: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The `allowedTopLevelClasses` override that accepts every archive counted, for a
    /// `NSSecureUnarchiveFromDataTransformer` subclass; nil when nothing is refused.
    public func swiftSnippet(allowList: AllowList) -> String? {
        Self.swiftSnippet(adding: suggestedAdditions, to: allowList)
    }

    /// The override that adds `additions` to `allowList`; nil when there is nothing to add.
    public static func swiftSnippet(adding additions: [String], to allowList: AllowList) -> String? {
        guard !additions.isEmpty else { return nil }
        let defaults = Set(AllowList.transformerDefaultClasses)
        let startsFromDefault = defaults.isSubset(of: Set(allowList.classes))
        let given = allowList.classes.filter { !startsFromDefault || !defaults.contains($0) }
        let listed = (given + additions).map(swiftTypeReference)
        let body = startsFromDefault ? "super.allowedTopLevelClasses + [\(listed.joined(separator: ", "))]" : "[\(listed.joined(separator: ", "))]"
        return "override class var allowedTopLevelClasses: [AnyClass] {\n    \(body)\n}"
    }

    /// `UIColor.self`; a Swift class by its unqualified name, since the app's module prefixes it.
    static func swiftTypeReference(_ name: String) -> String {
        let readable = SwiftClassName.demangle(name) ?? name
        return "\(readable.split(separator: ".").last.map(String.init) ?? readable).self"
    }
}
