import ArchivePayload
import CoreDataModel
import Foundation
import GRDB
import KeyedArchive
import PropertyList

/// Reports what every column of a store holds, without changing it.
///
/// The store is opened with `StoreConnection.openForReading`, which changes no file, and read in one snapshot, one pass per table through a cursor,
/// so memory stays flat however many rows there are. Each BLOB (and each TEXT value that is a
/// document) is classified by `StoredValueClassifier`; keyed archives are checked against the
/// allow-list as `NSSecureUnarchiveFromDataTransformer` would check them.
public struct StoreScanner: Sendable {
    public var options: ScanOptions

    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
    }

    /// Scans the store at `path`.
    ///
    /// - Parameters:
    ///   - progress: called after each batch of rows, on the calling thread. When it is given,
    ///     the rows of each table are counted first, for the total.
    ///   - visit: called with every value of a scanned column once it is classified, in row
    ///     order, on the calling thread (sweep reports each document in a cell).
    /// - Throws: `StoreError` when the file is not an SQLite database or a query fails.
    public func scan(path: String, progress: ((ScanProgress) -> Void)? = nil,
                     visit: ((StoredValueLocation, StoredValue) -> Void)? = nil) throws(StoreError) -> ScanReport {
        let store = try StoreConnection.openForReading(path)
        defer { store.close() }
        let storeURL = URL(fileURLWithPath: path)
        return try StoreConnection.sqlite(path) {
            try store.queue.read { db in
                let schema = try StoreSchema.read(db, path: path, model: options.model, modelOptions: options.modelOptions)
                var tracker = ProgressTracker(report: progress)
                if progress != nil {
                    for table in schema.tables {
                        tracker.total += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(StoreConnection.quote(table.name))") ?? 0
                    }
                }
                var tables: [TableReport] = []
                for table in schema.tables {
                    tables.append(try scan(table, db: db, path: path, storeURL: storeURL, coreData: schema.isCoreData, tracker: &tracker,
                                           visit: visit))
                }
                var report = ScanReport(path: path, isCoreData: schema.isCoreData, metadata: schema.metadata, entities: schema.entities,
                                        tables: tables, internalTables: schema.internalTables, allowList: options.allowList)
                report.model = schema.model
                report.modelProblem = schema.modelProblem
                report.coreDataTables = schema.coreDataTables
                report.warnings = schema.warnings
                return report
            }
        }
    }

    /// Reads the schema only: entities, metadata, tables, and the model `options.model` names.
    public func schema(path: String) throws(StoreError) -> StoreSchema {
        let store = try StoreConnection.openForReading(path)
        defer { store.close() }
        return try store.read { db in try StoreSchema.read(db, path: path, model: options.model, modelOptions: options.modelOptions) }
    }

    /// Counts rows as batches finish and reports them.
    struct ProgressTracker {
        let report: ((ScanProgress) -> Void)?
        let start = DispatchTime.now().uptimeNanoseconds
        var processed = 0
        var total = 0

        mutating func add(_ rows: Int) {
            processed += rows
            guard let report else { return }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            report(ScanProgress(processed: processed, total: max(total, processed), elapsed: elapsed))
        }
    }

    /// One pass over a table, accumulating a report per column.
    func scan(_ table: StoreTable, db: Database, path: String, storeURL: URL, coreData: Bool,
              tracker: inout ProgressTracker, visit: ((StoredValueLocation, StoredValue) -> Void)? = nil) throws -> TableReport {
        let columns = table.columns.filter { $0.role == .attribute }
        var reports = columns.map { column in
            var report = ColumnReport(table: table.name, column: column, entityName: table.entityName,
                                      displayName: column.modelName ?? (coreData && table.entityName != nil
                                          ? "\(table.entityName ?? table.name).\(StoreSchema.attributeName(ofColumn: column.name))"
                                          : "\(table.name).\(column.name)"))
            report.judgement = TransformerJudgement.judge(column.attribute, given: options.transformers, fallback: options.allowList)
            return report
        }
        let key = table.hasRowID ? StoreConnection.quote(table.keyColumn == "rowid" ? "rowid" : table.keyColumn) : "NULL"
        let selected = ([key] + columns.map { StoreConnection.quote($0.name) }).joined(separator: ", ")
        let sql = "SELECT \(selected) FROM \(StoreConnection.quote(table.name))"
        let classifier = StoredValueClassifier(readOptions: options.readOptions)
        // Each column is judged by its own transformer's list; columns with the same list share
        // a checker and its verdicts. A column the app's code judges has none.
        var judges: [AllowList: (checker: AllowListChecker, verdicts: ClassVerdictCache)] = [:]
        let columnJudges = reports.map { report -> (checker: AllowListChecker, verdicts: ClassVerdictCache)? in
            guard let list = report.judgement.allowList else { return nil }
            if let known = judges[list] { return known }
            let checker = AllowListChecker(allowList: list)
            let made = (checker, ClassVerdictCache(checker: checker))
            judges[list] = made
            return made
        }
        var refusals = Array(repeating: [String: Refusal](), count: columns.count)
        var suggestions = Array(repeating: [String: Int](), count: columns.count)
        var rowCount = 0
        @Sendable func classify(_ value: DatabaseValue) -> StoredValue {
            switch value.storage {
            case .null: StoredValue(kind: .null)
            case .int64, .double: StoredValue(kind: .number)
            case .string(let text): classifier.classify(Data(text.utf8), isText: true)
            case .blob(let data): classifier.classify(data)
            }
        }
        // Rows are read in batches on this thread, classified on several, and recorded here
        // in row order, so the report is the same however many threads there are. A batch ends
        // at 2,048 rows or 32 MB of values, so memory stays flat with large inline BLOBs.
        let batchRows = 2_048
        let batchBytes = 32 << 20
        var keys: [Int64] = []
        var values: [DatabaseValue] = []
        var bytes = 0
        func recordBatch() {
            let stored = ParallelBatch.map(values, parallelism: options.parallelism, stackSize: options.workerStackSize,
                                           placeholder: StoredValue(kind: .null), classify)
            for (row, primaryKey) in keys.enumerated() {
                for index in columns.indices {
                    if let visit {
                        visit(StoredValueLocation(table: table.name, column: columns[index].name,
                                                  keyColumn: table.hasRowID ? table.keyColumn : "row", primaryKey: primaryKey),
                              stored[row * columns.count + index])
                    }
                    record(stored[row * columns.count + index], primaryKey: primaryKey, into: &reports[index], suggestions: &suggestions[index],
                           judge: columnJudges[index], refusals: &refusals[index], storeURL: storeURL)
                }
            }
            tracker.add(keys.count)
            keys.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            bytes = 0
        }
        let cursor = try Row.fetchCursor(db, sql: sql)
        while let row = try cursor.next() {
            rowCount += 1
            keys.append((row[0] as Int64?) ?? Int64(rowCount))
            for index in columns.indices {
                let value: DatabaseValue = row[index + 1]
                switch value.storage {
                case .blob(let data): bytes += data.count
                case .string(let text): bytes += text.utf8.count
                case .null, .int64, .double: break
                }
                values.append(value)
            }
            if keys.count == batchRows || bytes >= batchBytes { recordBatch() }
        }
        recordBatch()
        var detailed: [ColumnReport] = []
        var plain: [StoreColumn] = []
        for index in reports.indices {
            reports[index].rowCount = rowCount
            reports[index].suggestedAdditions = ColumnReport.sorted(suggestions[index]).map(\.name)
            let plainKinds: Set<StoredValueKind> = [.null, .number, .text]
            let onlyPlain = reports[index].kinds.keys.allSatisfy(plainKinds.contains)
            if columns[index].affinity == .blob || !onlyPlain || columns[index].attribute?.attributeType == .transformable {
                detailed.append(reports[index])
            } else {
                plain.append(columns[index])
            }
        }
        return TableReport(name: table.name, entityNames: table.entities.map(\.name), rowCount: rowCount, columns: detailed, plainColumns: plain,
                           transientAttributes: table.transientAttributes, keyColumn: table.keyColumn)
    }

    /// What the allow-list said about archives with one set of classes.
    struct Refusal {
        var accepted: Bool
        var classes: [String]
        var suggestions: [String]
        var message: String
    }

    func record(_ stored: StoredValue, primaryKey: Int64, into report: inout ColumnReport, suggestions: inout [String: Int],
                judge: (checker: AllowListChecker, verdicts: ClassVerdictCache)?, refusals: inout [String: Refusal], storeURL: URL) {
        report.kinds[stored.kind, default: 0] += 1
        if stored.framing == .inline { report.inlineFramed += 1 }
        func example(_ message: String) {
            // One example per distinct message: the first row that shows it.
            if report.examples.count < options.maximumExamples, !report.examples.contains(where: { $0.message == message }) {
                report.examples.append(.init(primaryKey: primaryKey, kind: stored.kind, message: message))
            }
        }
        switch stored.kind {
        case .image, .propertyList, .other:
            if stored.kind == .other, stored.payload?.count == 16 {
                // Core Data's UUID attributes; random bytes may also start like a zlib header.
                report.formats["16 bytes (a UUID's size)", default: 0] += 1
            } else if let detail = stored.detail {
                // `PNG image 8×8` → `PNG image`: sizes vary row by row.
                let label = detail.range(of: " image").map { String(detail[..<$0.upperBound]) } ?? detail
                report.formats[label, default: 0] += 1
            } else if stored.payload != nil {
                report.formats["unrecognized bytes", default: 0] += 1
            }
        case .externalReference:
            if let reference = stored.reference,
               !FileManager.default.fileExists(atPath: reference.fileURL(store: storeURL).path) {
                report.missingExternalFiles += 1
                example("external reference to \(reference), whose file is missing")
            } else {
                example("external reference to \(stored.reference?.description ?? "a file")")
            }
        case .unreadable:
            example(stored.detail ?? "unreadable")
        case .keyedArchiveBinary, .keyedArchiveXML:
            guard let archive = stored.archive else { break }
            var seen: Set<String> = []
            for object in archive.decodedObjects where seen.insert(object.readableClassName).inserted {
                report.classes[object.readableClassName, default: 0] += 1
            }
            // The app's own transformer judges this column: classes are counted, no verdict.
            guard let (checker, verdicts) = judge else { break }
            // Most archives pass on classes already judged. A refusal depends only on the set of
            // classes, so the full check runs once per set; its paths are kept for the example.
            guard !verdicts.accepts(archive) else {
                report.accepted += 1
                break
            }
            let signature = ClassVerdictCache.signature(of: archive, trustsArchiveHierarchy: checker.allowList.trustsArchiveHierarchy)
            let refusal: Refusal
            if let known = refusals[signature] {
                refusal = known
            } else {
                let verdict = checker.check(archive)
                refusal = Refusal(accepted: verdict.isAccepted,
                                  classes: Array(Set(verdict.violations.map(\.readableClassName))).sorted(),
                                  suggestions: verdict.suggestedAdditions,
                                  message: "refused by the allow-list: " + verdict.violations.map { "\($0.readableClassName) at \($0.path)" }.joined(separator: ", "))
                refusals[signature] = refusal
            }
            if !refusal.accepted {
                report.refused += 1
                for name in refusal.classes { report.refusedClasses[name, default: 0] += 1 }
                for name in refusal.suggestions { suggestions[name, default: 0] += 1 }
                example(refusal.message)
            } else {
                report.accepted += 1
            }
        case .json, .text, .number, .null:
            break
        }
    }
}
