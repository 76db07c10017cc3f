import ArchivePayload
import Foundation
import KeyedArchive

/// How `PostgresScanner` reads a column.
public struct PostgresScanOptions: Sendable {
    /// The list archives are judged by: the transformer's defaults unless changed.
    public var allowList: AllowList
    /// Limits for reading each value.
    public var readOptions: KeyedArchiveReadOptions
    /// How many example rows the report keeps.
    public var maximumExamples: Int
    /// Threads classifying each batch. Default: the active cores.
    public var parallelism: Int
    /// Stack size for those threads (nil: the system's), for depth limits above 512.
    public var workerStackSize: Int?
    /// Rows per batch (one query each).
    public var batchSize: Int
    /// The part of the keys to read (`--shard K/N`).
    public var shard: PostgresShard
    /// Seconds to wait for the server (`--connect-timeout`).
    public var connectTimeout: Double?

    public init(allowList: AllowList = .transformerDefault, readOptions: KeyedArchiveReadOptions = .default, maximumExamples: Int = 5,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, workerStackSize: Int? = nil, batchSize: Int = 2_000,
                shard: PostgresShard = .all, connectTimeout: Double? = nil) {
        self.allowList = allowList
        self.readOptions = readOptions
        self.maximumExamples = maximumExamples
        self.parallelism = parallelism
        self.workerStackSize = workerStackSize
        self.batchSize = batchSize
        self.shard = shard
        self.connectTimeout = connectTimeout
    }
}
