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
    /// Kinds, formats, classes and the allow-list's verdicts, counted value by value as any
    /// table's are; its examples name rows by `Z_PK` (or rowid). External references whose file
    /// is not in `_EXTERNAL_DATA` are its `missingExternalFiles`.
    public var tally = ValueTally<Int64>()

    public init(table: String, column: StoreColumn, entityName: String?, displayName: String) {
        self.table = table
        self.column = column
        self.entityName = entityName
        self.displayName = displayName
    }

    /// What the rows hold, for `ModelAudit`.
    public var rows: AttributeRows {
        AttributeRows(values: tally.rowCount - (tally.kinds[.null] ?? 0), archives: tally.keyedArchiveCount, typedStreams: tally.typedStreamCount,
                      classes: tally.classes, refused: tally.refused, suggestedAdditions: tally.suggestedAdditions)
    }

    /// The classes seen, as the `--transformer` flag that would judge an app-defined
    /// transformer's column; nil when the column is judged already.
    public var suggestedTransformerFlag: String? {
        guard let name = judgement.appTransformer else { return nil }
        return TransformerJudgement.flag(transformer: name, classes: ModelAudit.topLevelCandidates(tally.classCounts.map(\.name), custom: attribute?.customClassName))
    }

    /// The override for the list the column was judged by.
    public var swiftSnippet: String? { judgement.allowList.flatMap { swiftSnippet(allowList: $0) } }

    /// The `allowedTopLevelClasses` override that accepts every archive in the column, for a
    /// `NSSecureUnarchiveFromDataTransformer` subclass; nil when nothing is refused.
    public func swiftSnippet(allowList: AllowList) -> String? {
        tally.swiftSnippet(allowList: allowList)
    }
}
