import CoreDataModel
import Foundation
import GRDB
import KeyedArchive

/// Reads every value of one attribute, classified, without changing the store: what `codegen`
/// infers its types from.
///
/// The store is opened as evidence is (`StoreConnection.openForReading`: no byte, time or file
/// beside it changes, as any user, rows only in its `-wal` included) and read in one snapshot,
/// in key order, through a cursor:
/// values are classified in batches on several threads and handed over one at a time, so
/// memory holds one batch. The attribute is located as `migrate` locates it, by the model
/// `model` names (the store's own by default), so `Entity.attribute` is the model's name and the
/// location carries the model's attribute (type, transformer, custom class).
public struct AttributeValueReader: Sendable {
    public var readOptions: KeyedArchiveReadOptions
    /// The model that names the attribute: the store's own `Z_MODELCACHE` by default.
    public var model: ModelChoice
    /// Limits for reading the model.
    public var modelOptions: ModelReadOptions
    /// Threads classifying each batch. Default: the active cores.
    public var parallelism: Int
    /// Stack size for those threads (see `MigrationOptions.workerStackSize`).
    public var workerStackSize: Int?

    public init(readOptions: KeyedArchiveReadOptions = .default, model: ModelChoice = .storeCache, modelOptions: ModelReadOptions = .default,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, workerStackSize: Int? = nil) {
        self.readOptions = readOptions
        self.model = model
        self.modelOptions = modelOptions
        self.parallelism = parallelism
        self.workerStackSize = workerStackSize
    }

    /// Calls `body` with each row's key and value of `attribute` (`Entity.attribute`, or
    /// `table.column`) in the store at `path`, NULLs included, in key order.
    ///
    /// - Returns: where the attribute was found.
    /// - Throws: `StoreError` when the store cannot be opened or read, has no such attribute (or
    ///   only a transient one), or a model file given does not read.
    @discardableResult
    public func read(path: String, attribute: String, _ body: (_ primaryKey: Int64, _ value: StoredValue) -> Void) throws(StoreError) -> AttributeLocation {
        let store = try StoreConnection.openForReading(path)
        defer { store.close() }
        let classifier = StoredValueClassifier(readOptions: readOptions)
        @Sendable func classify(_ value: DatabaseValue) -> StoredValue {
            switch value.storage {
            case .null: StoredValue(kind: .null)
            case .int64, .double: StoredValue(kind: .number)
            case .string(let text): classifier.classify(Data(text.utf8), isText: true)
            case .blob(let data): classifier.classify(data)
            }
        }
        let (model, modelOptions) = (self.model, self.modelOptions)
        return try StoreConnection.sqlite(path) {
            try store.queue.read { db in
                let schema = try StoreSchema.read(db, path: path, model: model, modelOptions: modelOptions)
                let location = try schema.locate(attribute, path: path)
                let statements = AttributeMigrator.Statements(location: location)
                // A batch ends at 2,048 rows or 32 MB of values, as in a scan.
                var keys: [Int64] = []
                var values: [DatabaseValue] = []
                var bytes = 0
                func handOver() {
                    let stored = ParallelBatch.map(values, parallelism: parallelism, stackSize: workerStackSize,
                                                   placeholder: StoredValue(kind: .null), classify)
                    for (key, value) in zip(keys, stored) { body(key, value) }
                    keys.removeAll(keepingCapacity: true)
                    values.removeAll(keepingCapacity: true)
                    bytes = 0
                }
                let cursor = try Row.fetchCursor(db, sql: statements.selectAll)
                var rowNumber: Int64 = 0
                while let row = try cursor.next() {
                    rowNumber += 1
                    keys.append((row[0] as Int64?) ?? rowNumber)
                    let value: DatabaseValue = row[1]
                    switch value.storage {
                    case .blob(let data): bytes += data.count
                    case .string(let text): bytes += text.utf8.count
                    case .null, .int64, .double: break
                    }
                    values.append(value)
                    if keys.count == 2_048 || bytes >= 32 << 20 { handOver() }
                }
                handOver()
                return location
            }
        }
    }
}
