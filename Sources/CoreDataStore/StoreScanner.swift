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
    ///   - path: the store file (any SQLite database).
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
        // A sweep's visitor reads each archive's objects; a scan needs their classes only.
        let classifier = StoredValueClassifier(readOptions: options.readOptions, archiveDetail: visit == nil ? .classes : .objects,
                                                   memo: RepeatedValueMemo())
        // Each column is judged by its own transformer's list; columns with the same list share
        // a judge and its verdicts. A column the app's code judges has none. Values are counted
        // as any table's are (`ValueTally`, shared with PostgreSQL columns); external references
        // are checked against the store's folder.
        var judges: [AllowList: AllowListJudge] = [:]
        let columnJudges = reports.map { report -> AllowListJudge? in
            guard let list = report.judgement.allowList else { return nil }
            if let known = judges[list] { return known }
            let made = AllowListJudge(allowList: list)
            judges[list] = made
            return made
        }
        var tallies = Array(repeating: ValueTally<Int64>(), count: columns.count)
        @Sendable func externalFileExists(_ reference: ExternalBinaryStorage.Reference) -> Bool {
            FileManager.default.fileExists(atPath: reference.fileURL(store: storeURL).path)
        }
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
                    tallies[index].record(stored[row * columns.count + index], key: primaryKey, judge: columnJudges[index],
                                          maximumExamples: options.maximumExamples, externalFileExists: externalFileExists)
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
            reports[index].tally = tallies[index]
            let plainKinds: Set<StoredValueKind> = [.null, .number, .text]
            let onlyPlain = reports[index].tally.kinds.keys.allSatisfy(plainKinds.contains)
            if columns[index].affinity == .blob || !onlyPlain || columns[index].attribute?.attributeType == .transformable {
                detailed.append(reports[index])
            } else {
                plain.append(columns[index])
            }
        }
        return TableReport(name: table.name, entityNames: table.entities.map(\.name), rowCount: rowCount, columns: detailed, plainColumns: plain,
                           transientAttributes: table.transientAttributes, keyColumn: table.keyColumn)
    }
}
