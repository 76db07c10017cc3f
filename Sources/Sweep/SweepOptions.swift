import ArchivePayload
import Foundation
import KeyedArchive

/// Choices and limits for a sweep. Every reading limit applies to each item on its own, as it
/// does for the single-file verbs; the others bound what the whole sweep may cost.
public struct SweepOptions: Sendable {
    /// Items read at once. Default: the active cores.
    public var jobs: Int
    /// Limits for reading each item: `propertyList.maximumInputSize` is the largest document
    /// read (a bigger one is an `unreadable` item, read no further), and depth, object and
    /// decoded-size limits apply as for one file.
    public var readOptions: KeyedArchiveReadOptions
    /// The list archives are judged by: the transformer's defaults unless changed.
    public var allowList: AllowList
    /// Report JSON files (and JSON in data) as `plist` items of format `json`. Off by default:
    /// extractions hold JSON everywhere, and it is not what Apple's APIs archive.
    public var includesJSON: Bool
    /// The largest SQLite database read, with its `-wal` and `-journal`: one inside a container
    /// is copied to a private temporary file first (SQLite cannot read from a stream), and one in
    /// a folder whose `-wal` holds rows is copied by `StoreConnection.openForReading`.
    /// Default: 16 GiB.
    public var maximumDatabaseSize: Int
    /// How deep containers may nest: a zip inside a tar inside a tar is 3. Default: 4.
    public var maximumContainerDepth: Int
    /// How deep documents may nest inside documents' data (an archive in an NSData of an
    /// archive in a database cell…). Default: 4.
    public var maximumNesting: Int
    /// Bytes of items read and waiting for a worker. A reader blocks beyond it, so memory stays
    /// bounded whatever the tree's size. Default: 256 MiB (an item larger than that waits
    /// until nothing else is held).
    public var maximumBytesWaiting: Int
    /// Keep each archive's object graph for the HTML report (`SweepItem.graph`).
    public var capturesGraphs: Bool
    /// The largest archive, in objects, whose graph is kept. Default: 5,000.
    public var maximumGraphObjects: Int
    /// Bytes of graphs kept in all. Default: 64 MiB.
    public var maximumGraphBytes: Int
    /// Stack size for the worker threads: nil keeps the system's, which suits the library's
    /// depth limit (512); callers that raise the limit must give a stack to match.
    public var workerStackSize: Int?
    /// Where databases from containers are copied while they are read. Default: the system's
    /// temporary folder (`TMPDIR`).
    public var temporaryDirectory: String

    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, readOptions: KeyedArchiveReadOptions = .default,
                allowList: AllowList = .transformerDefault, includesJSON: Bool = false, maximumDatabaseSize: Int = 16 << 30,
                maximumContainerDepth: Int = 4, maximumNesting: Int = 4, maximumBytesWaiting: Int = 256 << 20,
                capturesGraphs: Bool = false, maximumGraphObjects: Int = 5_000, maximumGraphBytes: Int = 64 << 20,
                workerStackSize: Int? = nil, temporaryDirectory: String = NSTemporaryDirectory()) {
        self.jobs = jobs
        self.readOptions = readOptions
        self.allowList = allowList
        self.includesJSON = includesJSON
        self.maximumDatabaseSize = maximumDatabaseSize
        self.maximumContainerDepth = maximumContainerDepth
        self.maximumNesting = maximumNesting
        self.maximumBytesWaiting = maximumBytesWaiting
        self.capturesGraphs = capturesGraphs
        self.maximumGraphObjects = maximumGraphObjects
        self.maximumGraphBytes = maximumGraphBytes
        self.workerStackSize = workerStackSize
        self.temporaryDirectory = temporaryDirectory
    }

    /// The largest document read, from `readOptions`.
    var maximumItemSize: Int { readOptions.propertyList.maximumInputSize }
}
