import ArchivePayload
import CoreDataModel
import KeyedArchive

/// What one column (one Core Data attribute) holds.
public struct ColumnReport: Sendable {
    public var table: String
    public var column: StoreColumn
    /// The root entity of the table (Core Data).
    public var entityName: String?
    /// `Group.darkColor` as the model names it; `BowTie.tintcolor` in a Core Data store read
    /// without a model; `table.column` otherwise.
    public var displayName: String
    /// The model's attribute, when the store was read with a model.
    public var attribute: AttributeDescription? { column.attribute }
    /// Who judged the archives, and by which list: the attribute's own transformer.
    public var judgement = TransformerJudgement(basis: .noModel, allowList: .transformerDefault)
    public var rowCount: Int = 0
    /// Values by kind.
    public var kinds: [StoredValueKind: Int] = [:]
    /// Finer labels within a kind: `PNG image`, `binary property list`, `16 bytes`.
    public var formats: [String: Int] = [:]
    /// Values with Core Data's `0x01` inline external-storage header.
    public var inlineFramed = 0
    /// External references whose file is not in `_EXTERNAL_DATA`.
    public var missingExternalFiles = 0
    /// For each class (readable name), how many values contain at least one object of it.
    public var classes: [String: Int] = [:]
    /// Keyed archives the allow-list accepts, and refuses.
    public var accepted = 0
    public var refused = 0
    /// For each refused class, how many values it made the allow-list refuse.
    public var refusedClasses: [String: Int] = [:]
    /// Classes to add (`--allow`) so that every archive here is accepted, most needed first.
    public var suggestedAdditions: [String] = []
    /// A few rows worth looking at: unreadable values, refusals, external references.
    public var examples: [Example] = []

    /// A row the report points at.
    public struct Example: Sendable, Hashable {
        /// `Z_PK` (or rowid).
        public var primaryKey: Int64
        public var kind: StoredValueKind
        public var message: String
    }

    public init(table: String, column: StoreColumn, entityName: String?, displayName: String) {
        self.table = table
        self.column = column
        self.entityName = entityName
        self.displayName = displayName
    }

    /// Kinds present, in the order of `StoredValueKind.allCases`.
    public var kindCounts: [(kind: StoredValueKind, count: Int)] {
        StoredValueKind.allCases.compactMap { kind in kinds[kind].map { (kind, $0) } }
    }

    /// Keyed archives of either format.
    public var keyedArchiveCount: Int { (kinds[.keyedArchiveBinary] ?? 0) + (kinds[.keyedArchiveXML] ?? 0) }

    /// Classes by count, most first, then by name.
    public var classCounts: [(name: String, count: Int)] { Self.sorted(classes) }
    public var refusedClassCounts: [(name: String, count: Int)] { Self.sorted(refusedClasses) }
    public var formatCounts: [(name: String, count: Int)] { Self.sorted(formats) }

    static func sorted(_ counts: [String: Int]) -> [(name: String, count: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// What the rows hold, for `ModelAudit`.
    public var rows: AttributeRows {
        AttributeRows(values: rowCount - (kinds[.null] ?? 0), archives: keyedArchiveCount, typedStreams: kinds[.typedStream] ?? 0,
                      classes: classes, refused: refused, suggestedAdditions: suggestedAdditions)
    }

    /// The classes seen, as the `--transformer` flag that would judge an app-defined
    /// transformer's column; nil when the column is judged already.
    public var suggestedTransformerFlag: String? {
        guard let name = judgement.appTransformer else { return nil }
        return TransformerJudgement.flag(transformer: name, classes: ModelAudit.topLevelCandidates(classCounts.map(\.name), custom: attribute?.customClassName))
    }

    /// The override for the list the column was judged by.
    public var swiftSnippet: String? { judgement.allowList.flatMap { swiftSnippet(allowList: $0) } }

    /// The `allowedTopLevelClasses` override that accepts every archive in the column, for a
    /// `NSSecureUnarchiveFromDataTransformer` subclass; nil when nothing is refused.
    public func swiftSnippet(allowList: AllowList) -> String? {
        ValueTally<Int64>.swiftSnippet(adding: suggestedAdditions, to: allowList)
    }
}
