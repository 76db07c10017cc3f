import CoreDataStore

/// What `scan` says about one attribute (one column) of a swept database.
public struct SweepAttribute: Sendable, Hashable {
    /// `Entity.attribute` in a Core Data store, `table.column` otherwise.
    public var name: String
    public var table: String
    public var column: String
    public var rows: Int
    /// Values by kind (`keyedArchiveBinary`, `propertyList`, `image`, `null`…; see
    /// `StoredValueKind`).
    public var kinds: [String: Int]
    /// For each class, how many values hold at least one object of it.
    public var classes: [String: Int]
    /// Keyed archives the allow-list accepts, and refuses.
    public var accepted: Int
    public var refused: Int
    /// Classes to add with `--allow` so that every archive of the attribute is accepted.
    public var suggestedAdditions: [String]
    /// The transformer whose list judged the archives (`NSSecureUnarchiveFromData`, an app's
    /// transformer given to the scanner), or nil when none did.
    public var judgedBy: String?
    /// Why the attribute was judged as it was, from the store's model: `noModel`,
    /// `notTransformable`, `secureDefaults`, `insecureTransformer`, `givenClasses`, `appCode`.
    public var basis: String

    public init(name: String, table: String, column: String, rows: Int, kinds: [String: Int], classes: [String: Int],
                accepted: Int, refused: Int, suggestedAdditions: [String], judgedBy: String? = nil, basis: String = "noModel") {
        self.name = name
        self.table = table
        self.column = column
        self.rows = rows
        self.kinds = kinds
        self.classes = classes
        self.accepted = accepted
        self.refused = refused
        self.suggestedAdditions = suggestedAdditions
        self.judgedBy = judgedBy
        self.basis = basis
    }

    /// The attribute as the store scanner reported it, judged by the store's own model (its
    /// `Z_MODELCACHE`) where it has one.
    public init(_ report: ColumnReport) {
        let tally = report.tally
        self.init(name: report.displayName, table: report.table, column: report.column.name, rows: tally.rowCount,
                  kinds: Dictionary(uniqueKeysWithValues: tally.kindCounts.map { ($0.kind.rawValue, $0.count) }),
                  classes: tally.classes, accepted: tally.accepted, refused: tally.refused,
                  suggestedAdditions: tally.suggestedAdditions, judgedBy: report.judgement.judgedBy, basis: report.judgement.basisCode)
    }
}
