import Foundation

/// A table of keyed blobs, as `KeyedBlobMigrator` sees it: rows read in key order, a batch at a
/// time, and converted values written back, each batch in one transaction, each row only if it
/// still holds what was read.
///
/// A Core Data store's attribute and a PostgreSQL table's column are the two implementations;
/// the engine does the rest (conversion, verification, idempotence, pacing, progress, tallies).
public protocol KeyedBlobTable: KeyedBlobTableMetatype {
    associatedtype Key: Hashable & Comparable & Sendable & CustomStringConvertible
    associatedtype Batch: KeyedBlobBatch where Batch.Key == Key
    associatedtype Failure: Error

    /// The next rows in key order after the last batch returned (from the first row on the
    /// first call), at most `limit`; nil when there are none left.
    mutating func readNext(limit: Int) throws(Failure) -> Batch?

    /// Writes the new bytes of rows of `batch` (by index) in one transaction, each only if the
    /// row still holds what was read, and says which rows were written and which the database
    /// refused (a constraint, a trigger, a type that cannot hold the value).
    mutating func write(_ values: [(index: Int, bytes: Data)], of batch: Batch) throws(Failure) -> KeyedBlobWrite

    /// The rows of `batch` as they are now, for a batch tried again after `isRetryable`.
    mutating func reread(_ batch: Batch) throws(Failure) -> Batch

    /// Whether `write` failed for a reason that passes (its row locks were not granted in
    /// time): the batch is rolled back and tried again later, not waited on.
    func isRetryable(_ error: Failure) -> Bool

    /// Why the migration should wait before its next write (a standby too far behind), or nil.
    mutating func pauseReason() throws(Failure) -> String?
}

extension KeyedBlobTable {
    public func isRetryable(_ error: Failure) -> Bool { false }
    public mutating func pauseReason() throws(Failure) -> String? { nil }
    public mutating func reread(_ batch: Batch) throws(Failure) -> Batch { batch }
}

#if compiler(>=6.2)
/// Lets lanes name a table's type on their own threads.
public typealias KeyedBlobTableMetatype = SendableMetatype
#else
public protocol KeyedBlobTableMetatype {}
#endif
