import ArchivePayload
import CoreDataModel
import Foundation
import KeyedArchive
import KeyedBlobs
import PropertyList

/// How `AttributeMigrator` converts an attribute's values.
public struct MigrationOptions: Sendable {
    /// The format values are rewritten in.
    public typealias Target = ConversionTarget

    /// Where the backup goes before the first write. No backup is made when nothing is to be
    /// written (a rerun with nothing left to convert).
    public enum Backup: Sendable, Hashable {
        /// `<store>.archivist-backup-<timestamp>.sqlite` beside the store (`-2`, `-3`… added
        /// when that name is taken).
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
    /// `batchSize` unless one is given: a store's default.
    public static let defaultBatchSize = 5_000
    /// How many failed rows are kept with their reason; the rest are only counted.
    public var maximumListedFailures: Int
    /// Threads converting each batch (SQLite itself stays on one). Default: the active cores.
    public var parallelism: Int
    /// With `.archive`: the classes to rename in every archive (`--rename-class OLD=NEW`).
    public var classRenames: [KeyedArchiveClassRenamer.Rename]
    /// With `.archive`: the class of the value at each payload path (`--class PATH=CLASS`), as
    /// `PayloadArchiver` takes them.
    public var archiveClasses: [String: String]
    /// How long to wait for another process's lock on the store, in seconds, before giving up
    /// (`--busy-timeout`). Default: `StoreConnection.defaultBusyTimeout` (5).
    public var busyTimeout: TimeInterval = StoreConnection.defaultBusyTimeout
    /// Stack size for those threads. Nil keeps the system's, which suits the default depth
    /// limit (512); callers that raise `readOptions.maximumDepth` (as the CLI does) must give a
    /// stack to match, as they do for their own thread.
    public var workerStackSize: Int?
    /// The model that names the attribute and its transformer: the store's own by default.
    public var model: ModelChoice = .storeCache
    /// The classes of the app's own transformers: when the attribute's transformer is given
    /// here, its list replaces `allowList`.
    public var transformers = TransformerAllowLists()
    /// Limits for reading the model.
    public var modelOptions: ModelReadOptions = .default

    public init(target: Target, allowList: AllowList = .transformerDefault, payloadOptions: PayloadOptions = PayloadOptions(),
                select: PayloadPath? = nil, jsonOptions: JSONWriteOptions = JSONWriteOptions(),
                readOptions: KeyedArchiveReadOptions = .default, dryRun: Bool = false, backup: Backup = .besideStore,
                batchSize: Int = defaultBatchSize, maximumListedFailures: Int = 1_000,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, workerStackSize: Int? = nil,
                classRenames: [KeyedArchiveClassRenamer.Rename] = [], archiveClasses: [String: String] = [:]) {
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
        self.classRenames = classRenames
        self.archiveClasses = archiveClasses
    }

    /// The per-row part: what `ValueConverter` needs.
    public var conversion: ConversionOptions {
        ConversionOptions(target: target, allowList: allowList, payloadOptions: payloadOptions, select: select,
                          jsonOptions: jsonOptions, readOptions: readOptions, classRenames: classRenames, archiveClasses: archiveClasses)
    }
}

extension ValueConverter {
    /// A converter for a store migration's options.
    public init(options: MigrationOptions) {
        self.init(options: options.conversion)
    }
}
