import CoreDataModel

/// The insecure-transformer audit of a store: its model's Transformable attributes, judged
/// with what its rows hold.
public struct StoreAudit: Sendable {
    /// The scan the rows were counted in.
    public var report: ScanReport
    /// The audit; nil when the store has no model to audit.
    public var audit: ModelAudit?

    /// What each stored attribute's rows hold, by `Entity.attribute` (the declaring entity).
    public static func rows(of report: ScanReport) -> [String: AttributeRows] {
        var out: [String: AttributeRows] = [:]
        for column in report.columns {
            guard case .attribute(let entity, let name)? = column.column.modelRole else { continue }
            out["\(entity).\(name)"] = column.rows
        }
        return out
    }
}

extension StoreScanner {
    /// Scans the store and audits its model (the one `options.model` names) against the rows.
    ///
    /// - Throws: `StoreError` when the store cannot be read.
    public func audit(path: String, progress: ((ScanProgress) -> Void)? = nil) throws(StoreError) -> StoreAudit {
        let report = try scan(path: path, progress: progress)
        guard let model = report.model?.model else { return StoreAudit(report: report, audit: nil) }
        let audit = ModelAudit(model: model, rows: StoreAudit.rows(of: report), given: options.transformers, allowList: options.allowList)
        return StoreAudit(report: report, audit: audit)
    }
}
