import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

/// How `AttributeMigrator` converts an attribute's values.
public struct MigrationOptions: Sendable {
    /// The format values are rewritten in.
    public enum Target: String, Sendable, Hashable, CaseIterable {
        /// JSON that `JSONDecoder` decodes into the Codable type replacing the archived class.
        case json
        /// A binary property list, as `PropertyListEncoder` writes by default.
        case propertyList = "plist"
        /// An XML property list.
        case xml

        /// The payload conventions the target's decoder expects.
        var payloadTarget: PayloadOptions.Target { self == .json ? .json : .propertyList }
    }

    /// Where the backup goes before the first write.
    public enum Backup: Sendable, Hashable {
        /// `<store>.archivist-backup-<timestamp>.sqlite` beside the store.
        case besideStore
        /// A path of the caller's choosing; it must not exist yet.
        case path(String)
        /// No backup (`--no-backup`).
        case none
    }

    public var target: Target
    /// Archives with a class this list refuses are left as they are and reported.
    public var allowList: AllowList
    /// How archives map to payloads; `target` is set from `Target`.
    public var payloadOptions: PayloadOptions
    /// Keep only this part of each payload (`.unbox` for the struct inside a box class).
    public var select: PayloadPath?
    /// Date, data and float spellings for JSON, as JSONEncoder's strategies.
    public var jsonOptions: JSONWriteOptions
    /// Limits for reading each stored value.
    public var readOptions: KeyedArchiveReadOptions
    /// Report what would happen without writing anything; the store is opened read-only.
    public var dryRun: Bool
    public var backup: Backup
    /// Rows per transaction. Each batch is committed on its own, so an interrupted migration
    /// keeps every finished batch and loses at most the one in progress (which rolls back).
    public var batchSize: Int
    /// How many failed rows are kept with their reason; the rest are only counted.
    public var maximumListedFailures: Int
    /// Threads converting each batch (SQLite itself stays on one). Default: the active cores.
    public var parallelism: Int
    /// Stack size for those threads. Nil keeps the system's, which suits the default depth
    /// limit (512); callers that raise `readOptions.maximumDepth` (as the CLI does) must give a
    /// stack to match, as they do for their own thread.
    public var workerStackSize: Int?

    public init(target: Target, allowList: AllowList = .transformerDefault, payloadOptions: PayloadOptions = PayloadOptions(),
                select: PayloadPath? = nil, jsonOptions: JSONWriteOptions = JSONWriteOptions(),
                readOptions: KeyedArchiveReadOptions = .default, dryRun: Bool = false, backup: Backup = .besideStore,
                batchSize: Int = 5_000, maximumListedFailures: Int = 1_000,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, workerStackSize: Int? = nil) {
        self.target = target
        self.allowList = allowList
        self.payloadOptions = payloadOptions
        self.select = select
        self.jsonOptions = jsonOptions
        self.readOptions = readOptions
        self.dryRun = dryRun
        self.backup = backup
        self.batchSize = batchSize
        self.maximumListedFailures = maximumListedFailures
        self.parallelism = parallelism
        self.workerStackSize = workerStackSize
    }
}

/// Why a row was not converted and left as it is.
public enum MigrationFailureReason: String, Sendable, Hashable, CaseIterable {
    /// The value starts like an archive or plist but does not read.
    case unreadable
    /// The allow-list refuses a class in the archive.
    case refused
    /// The archive's objects loop, or nest too deep, or name no root: no tree-shaped payload.
    case unmappable
    /// The payload cannot be written in the target format (NaN in JSON, a date out of range).
    case unrepresentable
    /// The new bytes did not decode back to the payload.
    case verificationFailed
    /// The value lives in an `_EXTERNAL_DATA` file, which a migration does not rewrite.
    case externalReference
    /// The value is not a keyed archive, nor already in the target format.
    case notAnArchive
    /// Another process changed the row between the read and the write; it is left as that
    /// process wrote it (a rerun converts it).
    case changedDuringMigration
}

/// One row left untouched, and why.
public struct MigrationFailure: Sendable, Hashable {
    /// `Z_PK` (or rowid).
    public var primaryKey: Int64
    public var reason: MigrationFailureReason
    public var message: String

    public init(primaryKey: Int64, reason: MigrationFailureReason, message: String) {
        self.primaryKey = primaryKey
        self.reason = reason
        self.message = message
    }
}

/// Why a row needed no change.
public enum MigrationSkipReason: String, Sendable, Hashable, CaseIterable {
    case null
    /// Already in the target format: a previous run converted it (what makes reruns safe).
    case alreadyConverted
}

/// Where a migration is, reported after every committed batch.
public struct MigrationProgress: Sendable, Hashable {
    /// Rows looked at so far.
    public var processed: Int
    /// Rows in scope when the migration started.
    public var total: Int
    public var converted: Int
    public var skipped: Int
    public var failed: Int
    /// Seconds since the first batch started (the backup excluded).
    public var elapsed: Double

    public var rowsPerSecond: Double { elapsed > 0 ? Double(processed) / elapsed : 0 }
    /// Seconds left at the current rate; nil before there is a rate.
    public var estimatedSecondsLeft: Double? {
        guard rowsPerSecond > 0, total >= processed else { return nil }
        return Double(total - processed) / rowsPerSecond
    }
}

/// What a migration did (or, for a dry run, would do).
public struct MigrationResult: Sendable {
    public var path: String
    public var location: AttributeLocation
    public var target: MigrationOptions.Target
    public var dryRun: Bool
    /// The backup made before the first write, if any.
    public var backupPath: String?
    /// Rows in scope.
    public var total = 0
    /// Rows rewritten (for a dry run: that would be).
    public var converted = 0
    public var skipped: [MigrationSkipReason: Int] = [:]
    public var failedByReason: [MigrationFailureReason: Int] = [:]
    /// The first `maximumListedFailures` failed rows, in key order.
    public var failures: [MigrationFailure] = []
    /// Classes to allow so that the refused rows convert, most needed first.
    public var suggestedAdditions: [String] = []
    /// How many refused rows each suggested class would accept.
    var suggestionCounts: [String: Int] = [:]
    /// Transactions committed.
    public var batches = 0
    public var elapsed: Double = 0

    public var skippedCount: Int { skipped.values.reduce(0, +) }
    public var failedCount: Int { failedByReason.values.reduce(0, +) }
    public var hasFailures: Bool { failedCount > 0 }
}
