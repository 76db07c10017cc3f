import ArchivePayload
import CoreDataModel
import Foundation
import GRDB
import KeyedArchive
import PropertyList

/// Rewrites every value of one attribute in place, in the target format, losing nothing: the
/// migration engine every table of keyed blobs shares (`KeyedBlobMigrator`), on the attribute's
/// table (`StoreAttributeTable`).
///
/// - The store is backed up with SQLite's online backup API just before the first batch that
///   changes a row (unless the options say not to), after checking that it can be written and
///   locked.
/// - Rows are read and written in batches, in key order, each batch in its own `IMMEDIATE`
///   transaction: a kill at any moment leaves each row either old or new, and SQLite's journal
///   (WAL or rollback) keeps the file valid. Memory holds one batch at most.
/// - Each new value is verified (`PayloadVerifier`) before it is written; a row that cannot be
///   converted is left untouched and reported with its key and the reason.
/// - Values already in the target format are skipped, so a rerun after an interruption only
///   does what is left.
/// - `Z_OPT` is incremented on each changed row, as Core Data does on every save, so a context
///   holding a stale copy of the object sees a merge conflict instead of overwriting the new value.
/// - A row another process changed between the read and the write is left as that process
///   wrote it and counted as skipped (`changedMeanwhile`).
public struct AttributeMigrator: Sendable {
    public var options: MigrationOptions

    public init(options: MigrationOptions) {
        self.options = options
    }

    /// Migrates `attribute` (`Entity.attribute`, or `table.column`) of the store at `path`.
    ///
    /// Before anything is written or backed up, it checks that the store file and its folder
    /// can be written and that the store can be locked (waiting `options.busyTimeout` for
    /// another process). The backup is made just before the first batch that changes a row, so
    /// a run with nothing to convert makes none. A run that fails after making its backup but
    /// before committing any batch removes that backup, and says so in the error.
    ///
    /// - Parameters:
    ///   - path: the store file.
    ///   - attribute: `Entity.attribute` as the model names it, or `table.column`.
    ///   - progress: called after each batch; on the calling thread.
    /// - Throws: `StoreError` when the store cannot be opened, locked, backed up or written.
    ///   Rows that fail do not throw; they are in the result.
    public func migrate(path: String, attribute: String,
                        progress: ((MigrationProgress) -> Void)? = nil) throws(StoreError) -> MigrationResult {
        guard options.batchSize >= 1 else { throw StoreError(.invalidRequest, "the batch size must be at least 1", path: path) }
        if options.target != .archive, !options.classRenames.isEmpty || !options.archiveClasses.isEmpty {
            throw StoreError(.invalidRequest, "class renames and class assignments go with the archive target", path: path)
        }
        for (classPath, name) in options.archiveClasses.sorted(by: { $0.key < $1.key }) {
            if let problem = ArchivedClassName.problem(name) {
                throw StoreError(.invalidRequest, "--class \(classPath)=\(name): \(problem)", path: path)
            }
        }
        if options.dryRun { return try dryRun(path: path, attribute: attribute, progress: progress) }
        try checkWritable(path)
        let backup: StoreBackup.Destination? = switch options.backup {
        case .none: nil
        case .besideStore: .beside(store: path)
        case .path(let destination): .exactly(destination)
        }
        if let backup { try StoreBackup.check(backup, storePath: path) }
        let queue = try StoreConnection.openForWriting(path, busyTimeout: options.busyTimeout)
        defer { try? queue.close() }
        let (modelChoice, modelOptions) = (self.options.model, self.options.modelOptions)
        let schema: StoreSchema = try locking(path) {
            try queue.read { db in try StoreSchema.read(db, path: path, model: modelChoice, modelOptions: modelOptions) }
        }
        let (location, options, judgement) = try prepare(attribute, in: schema, path: path)
        // The write lock, taken and given back: a store another process holds fails here,
        // after the wait, before any backup.
        try locking(path) { try queue.inDatabase { db in try db.inTransaction(.immediate) { .rollback } } }
        var result = Self.result(path: path, location: location, options: options, judgement: judgement, model: modelChoice, dryRun: false)
        let statements = Statements(location: location)
        let engine = KeyedBlobMigrator(options: Self.engineOptions(options))
        // The table makes the backup just before the first batch that changes a row, and counts
        // what it committed, for the error of a run that stops.
        let log = StoreAttributeTable.WriteLog(backup: backup)
        let tally: KeyedBlobTally<Int64>
        do throws(StoreError) {
            tally = try StoreConnection.sqlite(path, table: location.table.name, column: location.column.name) {
                // Rows are read outside the write transactions, so each update is guarded (Z_OPT,
                // or the old value, unchanged since the read), as Core Data guards its own saves.
                try queue.writeWithoutTransaction { db in
                    let total = try Int.fetchOne(db, sql: statements.count) ?? 0
                    var table = StoreAttributeTable(db: db, statements: statements, path: path, location: location, log: log)
                    return try engine.migrate(&table, total: total, progress: progress)
                }
            }
        } catch {
            throw failed(error, backupPath: log.backupPath, committedBatches: log.committedBatches, converted: log.converted)
        }
        result.backupPath = log.backupPath
        result.record(tally)
        return result
    }

    /// A migration's or a dry run's result before any row is read: the attribute, the verdict
    /// on its transformer, the model that named it and the JSON spellings.
    static func result(path: String, location: AttributeLocation, options: MigrationOptions, judgement: TransformerJudgement,
                       model: ModelChoice, dryRun: Bool) -> MigrationResult {
        var result = MigrationResult(path: path, location: location, target: options.target, dryRun: dryRun)
        result.judgement = judgement
        result.model = model
        result.jsonOptions = options.jsonOptions
        return result
    }

    /// The engine's options for a store.
    static func engineOptions(_ options: MigrationOptions) -> KeyedBlobMigrationOptions {
        KeyedBlobMigrationOptions(conversion: options.conversion, dryRun: options.dryRun, batchSize: options.batchSize,
                                  maximumListedFailures: options.maximumListedFailures, parallelism: options.parallelism,
                                  workerStackSize: options.workerStackSize)
    }

    /// A dry run: the store read as `StoreConnection.openForReading` reads it, in one snapshot,
    /// nothing written and no file touched.
    func dryRun(path: String, attribute: String, progress: ((MigrationProgress) -> Void)?) throws(StoreError) -> MigrationResult {
        let store = try StoreConnection.openForReading(path)
        defer { store.close() }
        let (modelChoice, modelOptions) = (self.options.model, self.options.modelOptions)
        let schema = try store.read { db in try StoreSchema.read(db, path: path, model: modelChoice, modelOptions: modelOptions) }
        let (location, options, judgement) = try prepare(attribute, in: schema, path: path)
        var result = Self.result(path: path, location: location, options: options, judgement: judgement, model: modelChoice, dryRun: true)
        let statements = Statements(location: location)
        let engine = KeyedBlobMigrator(options: Self.engineOptions(options))
        // One read transaction: a consistent snapshot, and no write is possible.
        let tally: KeyedBlobTally<Int64> = try StoreConnection.sqlite(path, table: location.table.name, column: location.column.name) {
            try store.queue.read { db in
                let total = try Int.fetchOne(db, sql: statements.count) ?? 0
                var table = StoreAttributeTable(db: db, statements: statements, path: path, location: location,
                                                log: StoreAttributeTable.WriteLog(backup: nil))
                return try engine.migrate(&table, total: total, progress: progress)
            }
        }
        result.record(tally)
        return result
    }

    /// The attribute's place, and the options for it: the attribute's own transformer decides
    /// which classes are read (a list given for it replaces the defaults).
    func prepare(_ attribute: String, in schema: StoreSchema, path: String) throws(StoreError)
        -> (location: AttributeLocation, options: MigrationOptions, judgement: TransformerJudgement) {
        let location = try schema.locate(attribute, path: path)
        let judgement = TransformerJudgement.judge(location.attribute, given: self.options.transformers, fallback: self.options.allowList)
        var options = self.options
        if case .givenClasses = judgement.basis, let list = judgement.allowList { options.allowList = list }
        guard location.table.hasRowID || location.table.keyColumn != "rowid" else {
            throw StoreError(.invalidRequest, "the table has neither Z_PK nor a rowid to name rows by", path: path, table: location.table.name)
        }
        return (location, options, judgement)
    }

    /// Refuses a store that cannot be changed before anything else is done: a file without
    /// write permission (even for root, who could write it anyway: a read-only file is how
    /// evidence is kept), a read-only file system, or a folder where SQLite cannot make its
    /// journal.
    func checkWritable(_ path: String) throws(StoreError) {
        try StoreConnection.checkDatabaseFile(path)
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o222 == 0 {
            throw StoreError(.cannotOpen, "the store is read-only (mode \(String(info.st_mode & 0o7777, radix: 8))); nothing was changed. Make it writable (chmod u+w) to migrate it, or migrate a copy", path: path)
        }
        if access(path, W_OK) != 0 {
            throw StoreError(.cannotOpen, "the store cannot be written (\(String(cString: strerror(errno)))); nothing was changed", path: path)
        }
        let folder = (path as NSString).deletingLastPathComponent
        if access(folder.isEmpty ? "." : folder, W_OK) != 0 {
            throw StoreError(.cannotOpen, "the store's folder cannot be written (\(String(cString: strerror(errno)))), and SQLite writes its journal there; nothing was changed", path: path)
        }
    }

    /// Runs `body`, saying "locked by another process" when SQLite gave up waiting for a lock.
    func locking<T>(_ path: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw StoreError(.cannotOpen, lockedMessage(nothingChanged: true), path: path)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.sqlite, StoreConnection.describe(error), path: path)
        }
    }

    func lockedMessage(nothingChanged: Bool) -> String {
        let seconds = options.busyTimeout == options.busyTimeout.rounded() ? String(Int(options.busyTimeout)) : String(options.busyTimeout)
        return "the store is locked by another process (waited \(seconds) s; --busy-timeout SECONDS waits longer)" + (nothingChanged ? "; nothing was changed" : "")
    }

    /// The error of a run that stopped, with what became of its backup: removed when no batch
    /// was committed (the store is as it was, and the copy would only strand), kept otherwise.
    func failed(_ error: StoreError, backupPath: String?, committedBatches: Int, converted: Int) -> StoreError {
        var error = error
        if error.message.contains("database is locked") { error.message = lockedMessage(nothingChanged: committedBatches == 0) }
        guard let backupPath else { return error }
        if committedBatches == 0 {
            StoreBackup.discard(backupPath)
            error.message += "; the store was not changed, so this run's backup \(backupPath) was removed"
        } else {
            error.message += "; \(converted) rows were converted before it stopped (run migrate again to finish), and the backup of the store as it was is at \(backupPath)"
        }
        return error
    }

    /// The SQL for one attribute.
    struct Statements {
        let select: String
        let update: String
        let count: String
        /// Every row's key and value, in key order, for reading only.
        let selectAll: String

        init(location: AttributeLocation) {
            let table = StoreConnection.quote(location.table.name)
            let column = StoreConnection.quote(location.column.name)
            let key = location.table.keyColumn == "rowid" ? "rowid" : StoreConnection.quote(location.table.keyColumn)
            var filter = ""
            if let ids = location.entityIDs, !ids.isEmpty {
                filter = " AND \"Z_ENT\" IN (\(ids.map(String.init).joined(separator: ", ")))"
            }
            // The third column guards the update: Z_OPT where Core Data keeps one, else the value.
            let guardColumn = location.table.hasOptimisticLock ? "\"Z_OPT\"" : column
            select = "SELECT \(key), \(column), \(guardColumn) FROM \(table) WHERE \(key) > ?\(filter) ORDER BY \(key) LIMIT ?"
            // A table with neither Z_PK nor a rowid is read in its own order, rows numbered by the reader.
            let readKey = location.table.keyColumn == "rowid" && !location.table.hasRowID ? "NULL" : key
            selectAll = "SELECT \(readKey), \(column) FROM \(table) WHERE 1\(filter)" + (readKey == "NULL" ? "" : " ORDER BY \(key)")
            count = "SELECT COUNT(*) FROM \(table) WHERE 1\(filter)"
            if location.table.hasOptimisticLock {
                update = "UPDATE \(table) SET \(column) = ?, \"Z_OPT\" = COALESCE(\"Z_OPT\", 0) + 1 WHERE \(key) = ? AND \"Z_OPT\" IS ?"
            } else {
                update = "UPDATE \(table) SET \(column) = ? WHERE \(key) = ? AND \(column) IS ?"
            }
        }
    }
}
