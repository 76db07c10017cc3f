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

/// Why `StoreScanner.modelReport(path:isStore:store:audit:progress:)` has no model to show.
public enum ModelReportFailure: Error, Sendable {
    /// The store at `path` could not be read.
    case store(StoreError, path: String)
    /// The store holds no model this reads (why, in words).
    case noModel(String)
    /// The model file could not be read.
    case model(ModelError)
}

extension StoreScanner {
    /// The model `archivist model` shows, and its audit when `audit` is set: a store's own (its
    /// `Z_MODELCACHE`) when `isStore`, else the model file at `path`, whose version a .momd
    /// picks by the hashes of `store` (the store it belongs to), whose rows the audit then
    /// reads. Without a store, the audit judges the model alone.
    ///
    /// - Throws: `ModelReportFailure`: the store, its missing model, or the model file.
    public func modelReport(path: String, isStore: Bool, store: String? = nil, audit: Bool = false,
                            progress: ((ScanProgress) -> Void)? = nil) throws(ModelReportFailure) -> ModelReport {
        guard let storePath = isStore ? path : store else {
            let loaded: LoadedModel
            do throws(ModelError) {
                loaded = try ModelReader(options: options.modelOptions).read(path: path)
            } catch {
                throw .model(error)
            }
            let audit = audit ? ModelAudit(model: loaded.model, given: options.transformers, allowList: options.allowList) : nil
            return ModelReport(file: path, model: loaded, audit: audit)
        }
        var scanner = self
        scanner.options.model = isStore ? .storeCache : .file(path)
        let found: (model: LoadedModel?, problem: String?, audit: ModelAudit?)
        do throws(StoreError) {
            if audit {
                let result = try scanner.audit(path: storePath, progress: progress)
                found = (result.report.model, result.report.modelProblem, result.audit)
            } else {
                let schema = try scanner.schema(path: storePath)
                found = (schema.model, schema.modelProblem, nil)
            }
        } catch {
            throw .store(error, path: storePath)
        }
        guard let model = found.model else { throw .noModel(found.problem ?? "no model") }
        return ModelReport(file: path, model: model, audit: found.audit, rowsRead: audit)
    }
}
