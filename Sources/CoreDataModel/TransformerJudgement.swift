import ArchivePayload

/// Who judges the archives of one column, and by which list: the attribute's own transformer,
/// as the model names it.
public struct TransformerJudgement: Sendable, Hashable {
    public enum Basis: Sendable, Hashable {
        /// No model, or the column is not one of its attributes: the list given on the command
        /// line (the secure transformer's defaults plus `--allow`), as without a model.
        case noModel
        /// A Binary Data (or other non-Transformable) attribute that happens to hold archives:
        /// the app unarchives them itself; judged by the given list, as without a model.
        case notTransformable(AttributeType)
        /// `NSSecureUnarchiveFromData`: its default list (plus `--allow`).
        case secureDefaults
        /// No transformer or an insecure one (`NSKeyedUnarchiveFromData`): it reads any class
        /// today; judged as `NSSecureUnarchiveFromData` will judge it once the app switches.
        case insecureTransformer(String)
        /// A transformer whose classes the user gave (`--transformer NAME=…`).
        case givenClasses(String)
        /// An app-defined transformer whose classes were not given: the app's code decides.
        case appCode(String)
    }

    public var basis: Basis
    /// The list the verdict is made under; nil when the app's own code judges.
    public var allowList: AllowList?

    public init(basis: Basis, allowList: AllowList?) {
        self.basis = basis
        self.allowList = allowList
    }

    /// The judgement for a column holding `attribute` (nil: not a model attribute).
    ///
    /// - Parameters:
    ///   - attribute: the model's attribute for the column, or nil.
    ///   - given: transformer classes from `--transformer` / `--transformers`; a list given for
    ///     any transformer name, `NSSecureUnarchiveFromData` included, replaces its own.
    ///   - fallback: the list without a model (the secure defaults plus `--allow`, or `--only`).
    public static func judge(_ attribute: AttributeDescription?, given: TransformerAllowLists, fallback: AllowList) -> TransformerJudgement {
        guard let attribute else { return TransformerJudgement(basis: .noModel, allowList: fallback) }
        guard let transformer = attribute.transformer else {
            return TransformerJudgement(basis: .notTransformable(attribute.attributeType), allowList: fallback)
        }
        if let classes = given[transformer.effectiveName] {
            var list = AllowList(classes: classes)
            list.trustsArchiveHierarchy = fallback.trustsArchiveHierarchy
            return TransformerJudgement(basis: .givenClasses(transformer.effectiveName), allowList: list)
        }
        switch transformer {
        case .secureUnarchive: return TransformerJudgement(basis: .secureDefaults, allowList: fallback)
        case .none, .insecure: return TransformerJudgement(basis: .insecureTransformer(transformer.effectiveName), allowList: fallback)
        case .appDefined(let name): return TransformerJudgement(basis: .appCode(name), allowList: nil)
        }
    }

    /// The transformer whose list the verdict uses, for reports: `NSSecureUnarchiveFromData`
    /// (defaults, or the insecure transformer's secure replacement), a given transformer's
    /// name, or nil (no model, not Transformable, or judged by the app's code).
    public var judgedBy: String? {
        switch basis {
        case .secureDefaults, .insecureTransformer: ValueTransformerKind.secureUnarchiveName
        case .givenClasses(let name): name
        case .noModel, .notTransformable, .appCode: nil
        }
    }

    /// Whether Archivist gave a verdict at all.
    public var isJudged: Bool { allowList != nil }

    /// The app-defined transformer that judges instead, when its classes were not given.
    public var appTransformer: String? {
        if case .appCode(let name) = basis { return name }
        return nil
    }

    /// The `--transformer` flag that would let Archivist judge an app-defined transformer's
    /// column: its name and the classes the rows hold.
    public static func flag(transformer: String, classes: [String]) -> String {
        "--transformer \(transformer)=\(classes.isEmpty ? "CLASS" : classes.joined(separator: ","))"
    }
}
