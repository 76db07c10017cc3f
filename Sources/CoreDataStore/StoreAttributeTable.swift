import Foundation
import GRDB
import KeyedBlobs

/// One attribute of a store as a table of keyed blobs: what `KeyedBlobMigrator` reads and
/// writes when it migrates a Core Data attribute (a PostgreSQL column is the other kind).
///
/// Rows are read in key order (`Z_PK`, or the rowid) outside any write transaction; each batch
/// is written in one `IMMEDIATE` transaction, each row guarded by `Z_OPT` (where Core Data keeps
/// one, and then bumped, as Core Data does on every save) or else by the value read, so a row
/// another process changed meanwhile is left as that process wrote it. The store's backup is
/// made just before the first batch that changes a row (`WriteLog`), so a run with nothing to
/// convert makes none.
struct StoreAttributeTable: KeyedBlobTable {
    /// Where the backup goes and what was committed, kept outside the table so that a run that
    /// stops can still say it.
    final class WriteLog {
        let backup: StoreBackup.Destination?
        /// The backup made, once the first changing batch came.
        var backupPath: String?
        var committedBatches = 0
        /// Rows written by committed batches.
        var converted = 0

        init(backup: StoreBackup.Destination?) {
            self.backup = backup
        }
    }

    struct Batch: KeyedBlobBatch {
        var keys: [Int64] = []
        var values: [KeyedBlobValue] = []
        /// What each update is guarded by: `Z_OPT`, or the value read.
        var guards: [DatabaseValue] = []
    }

    let db: Database
    let statements: AttributeMigrator.Statements
    let path: String
    let location: AttributeLocation
    let log: WriteLog
    var after = Int64.min
    var finished = false

    func fail(_ error: any Error) -> StoreError {
        (error as? StoreError) ?? StoreError(.sqlite, StoreConnection.describe(error), path: path,
                                             table: location.table.name, column: location.column.name)
    }

    mutating func readNext(limit: Int) throws(StoreError) -> Batch? {
        guard !finished else { return nil }
        let rows: [Row]
        do {
            rows = try Row.fetchAll(db.cachedStatement(sql: statements.select), arguments: [after, limit])
        } catch {
            throw fail(error)
        }
        var batch = Batch()
        batch.keys.reserveCapacity(rows.count)
        batch.values.reserveCapacity(rows.count)
        batch.guards.reserveCapacity(rows.count)
        for row in rows {
            guard let key = row[0] as Int64? else { continue }
            let value: DatabaseValue = row[1]
            batch.keys.append(key)
            let blob: KeyedBlobValue = switch value.storage {
            case .null: .null
            case .blob(let data): .bytes(data)
            case .string(let text): .text(Data(text.utf8))
            case .int64, .double: .number
            }
            batch.values.append(blob)
            batch.guards.append(row[2])
        }
        if rows.count < limit { finished = true }
        guard let last = batch.keys.last else {
            finished = true
            return nil
        }
        after = last
        return batch
    }

    mutating func write(_ values: [(index: Int, bytes: Data)], of batch: Batch) throws(StoreError) -> KeyedBlobWrite {
        var written = Set<Int>()
        if let backup = log.backup, log.backupPath == nil {
            log.backupPath = try StoreBackup.copy(db, storePath: path, to: backup)
        }
        do {
            let update = try db.cachedStatement(sql: statements.update)
            try db.inTransaction(.immediate) {
                for (index, bytes) in values {
                    // Text stays text when the new format is text (JSON, XML); a binary plist or
                    // archive is a BLOB, which is what Core Data hands a transformer as Data.
                    let isText = if case .text = batch.values[index] { true } else { false }
                    let stored: DatabaseValueConvertible = isText && !bytes.starts(with: StoredValueClassifier.bplist)
                        ? String(decoding: bytes, as: UTF8.self) : bytes
                    try update.execute(arguments: [stored, batch.keys[index], batch.guards[index]])
                    if db.changesCount == 1 { written.insert(index) }
                }
                return .commit
            }
        } catch {
            throw fail(error)
        }
        log.committedBatches += 1
        log.converted += written.count
        return KeyedBlobWrite(written: written)
    }
}
