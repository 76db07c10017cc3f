import ArchivePayload
import KeyedArchive

/// What a store's rows hold in one attribute, as a scan counts it: the input an audit needs
/// to write the exact `allowedTopLevelClasses`.
public struct AttributeRows: Sendable, Hashable {
    /// Non-NULL values.
    public var values: Int
    /// Keyed archives among them.
    public var archives: Int
    /// NSArchiver typedstreams among them (an `NSUnarchiveFromData` attribute's values).
    public var typedStreams: Int
    /// For each class (readable name), how many archives contain it.
    public var classes: [String: Int]
    /// Archives the column's list refuses, and the classes to add so that all are accepted.
    public var refused: Int
    public var suggestedAdditions: [String]

    public init(values: Int = 0, archives: Int = 0, typedStreams: Int = 0, classes: [String: Int] = [:], refused: Int = 0,
                suggestedAdditions: [String] = []) {
        self.values = values
        self.archives = archives
        self.typedStreams = typedStreams
        self.classes = classes
        self.refused = refused
        self.suggestedAdditions = suggestedAdditions
    }

    /// Classes by count, most first, then by name.
    public var classCounts: [(name: String, count: Int)] {
        classes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// The insecure-transformer audit: every stored Transformable attribute that Core Data warns
/// about or refuses, with the transformer that fixes it.
public struct ModelAudit: Sendable, Hashable {
    /// Why an attribute is listed.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// No transformer: Core Data uses NSKeyedUnarchiveFromData and warns on every launch.
        case noTransformer
        /// `NSKeyedUnarchiveFromData` or `NSUnarchiveFromData` by name: insecure, warned about.
        case insecureTransformer(String)
        /// `NSSecureUnarchiveFromData` with a custom class outside its default list: Core Data
        /// refuses those values on read.
        case customClassOutsideDefaults(String)
        /// `NSSecureUnarchiveFromData` whose rows hold classes outside its default list.
        case rowsRefusedByDefaults([String])
        /// A transformer whose classes were given (`--transformer`), refusing rows.
        case rowsRefusedByGivenClasses(transformer: String, classes: [String])

        public var description: String {
            switch self {
            case .noTransformer:
                "Transformable with no transformer: Core Data falls back to the insecure NSKeyedUnarchiveFromData and warns on every launch"
            case .insecureTransformer(let name) where name == ValueTransformerKind.unarchiveName:
                "transformer \(name) reads NSArchiver typedstreams, which no secure unarchiver reads: its values must be migrated (archivist migrate --to archive) before the model names a secure transformer"
            case .insecureTransformer(let name):
                "transformer \(name) unarchives insecurely: Core Data warns on every launch"
            case .customClassOutsideDefaults(let name):
                "NSSecureUnarchiveFromData with custom class \(name), which its default list does not allow: Core Data refuses these values on read"
            case .rowsRefusedByDefaults(let classes):
                "NSSecureUnarchiveFromData refuses rows holding \(classes.joined(separator: ", ")), outside its default list"
            case .rowsRefusedByGivenClasses(let transformer, let classes):
                "\(transformer), with the classes given, refuses rows holding \(classes.joined(separator: ", "))"
            }
        }

        /// A short machine name: `noTransformer`, `insecureTransformer`, …
        public var code: String {
            switch self {
            case .noTransformer: "noTransformer"
            case .insecureTransformer: "insecureTransformer"
            case .customClassOutsideDefaults: "customClassOutsideDefaults"
            case .rowsRefusedByDefaults: "rowsRefusedByDefaults"
            case .rowsRefusedByGivenClasses: "rowsRefusedByGivenClasses"
            }
        }
    }

    /// One attribute to fix.
    public struct Finding: Sendable, Hashable {
        public var entity: String
        public var attribute: AttributeDescription
        public var problem: Problem
        /// What the rows hold; nil when no store was read.
        public var rows: AttributeRows?
        public var fix: TransformerFix
    }

    /// A Transformable attribute under an app-defined transformer whose classes were not
    /// given: its code judges, so it is not audited.
    public struct AppJudged: Sendable, Hashable {
        public var entity: String
        public var attribute: AttributeDescription
        public var transformer: String
        public var rows: AttributeRows?
        /// The `--transformer` flag that would judge it.
        public var flag: String
    }

    public var findings: [Finding]
    public var judgedByApp: [AppJudged]

    public var hasFindings: Bool { !findings.isEmpty }

    /// Audits every stored Transformable attribute of `model`.
    ///
    /// - Parameters:
    ///   - model: the app's model.
    ///   - rows: what the store's rows hold, by `Entity.attribute` (the declaring entity), as
    ///     a scan under each attribute's own judgement counted it; empty without a store.
    ///   - given: the app's transformer classes from `--transformer` / `--transformers`.
    ///   - allowList: the secure transformer's list (its defaults, plus any `--allow`).
    public init(model: ManagedObjectModel, rows: [String: AttributeRows] = [:], given: TransformerAllowLists = TransformerAllowLists(),
                allowList: AllowList = .transformerDefault) {
        var findings: [Finding] = []
        var judgedByApp: [AppJudged] = []
        for (entity, attribute) in model.transformableAttributes {
            let key = "\(entity.name).\(attribute.name)"
            let summary = rows[key]
            let judgement = TransformerJudgement.judge(attribute, given: given, fallback: allowList)
            let refusedClasses = summary?.suggestedAdditions ?? []
            switch judgement.basis {
            case .appCode(let name):
                let seen = summary?.classCounts.map(\.name) ?? []
                judgedByApp.append(AppJudged(entity: entity.name, attribute: attribute, transformer: name, rows: summary,
                                             flag: TransformerJudgement.flag(transformer: name, classes: Self.topLevelCandidates(seen, custom: attribute.customClassName))))
            case .givenClasses(let name):
                guard !refusedClasses.isEmpty else { continue }
                findings.append(Finding(entity: entity.name, attribute: attribute,
                                        problem: .rowsRefusedByGivenClasses(transformer: name, classes: refusedClasses), rows: summary,
                                        fix: TransformerFix(entity: entity.name, attribute: attribute, existingTransformer: name,
                                                            adding: TransformerFix.addedClasses(customClass: attribute.customClassName,
                                                                                                given: given[name] ?? [], needed: refusedClasses))))
            case .insecureTransformer(let name):
                let additions = TransformerFix.addedClasses(customClass: attribute.customClassName, needed: refusedClasses, beyond: allowList)
                var fix = TransformerFix(entity: entity.name, attribute: attribute, adding: additions)
                // Typedstreams must become keyed archives first, unless the rows read show that
                // they already are.
                if name == ValueTransformerKind.unarchiveName, summary.map({ $0.typedStreams > 0 || $0.values == 0 }) ?? true {
                    fix.requiresMigration(entity: entity.name, attribute: attribute.name)
                }
                findings.append(Finding(entity: entity.name, attribute: attribute,
                                        problem: attribute.valueTransformerName == nil ? .noTransformer : .insecureTransformer(name),
                                        rows: summary, fix: fix))
            case .secureDefaults:
                let additions = TransformerFix.addedClasses(customClass: attribute.customClassName, needed: refusedClasses, beyond: allowList)
                guard !additions.isEmpty else { continue }
                let problem: Problem
                if let custom = attribute.customClassName, !TransformerFix.accepts(allowList, custom) {
                    problem = .customClassOutsideDefaults(custom)
                } else {
                    problem = .rowsRefusedByDefaults(refusedClasses)
                }
                findings.append(Finding(entity: entity.name, attribute: attribute, problem: problem, rows: summary,
                                        fix: TransformerFix(entity: entity.name, attribute: attribute, adding: additions)))
            case .noModel, .notTransformable:
                continue
            }
        }
        self.findings = findings
        self.judgedByApp = judgedByApp
    }

    /// Classes seen, as a transformer's top-level list: the custom class first, and without
    /// the plain Foundation values an archive holds inside (strings, numbers).
    public static func topLevelCandidates(_ seen: [String], custom: String?) -> [String] {
        var out: [String] = []
        if let custom { out.append(custom) }
        for name in seen where !out.contains(name) && !["NSString", "NSNumber", "NSMutableString"].contains(name) { out.append(name) }
        return out.isEmpty ? seen : out
    }
}
