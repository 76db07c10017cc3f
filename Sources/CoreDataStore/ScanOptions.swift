import ArchivePayload
import CoreDataModel
import Foundation
import KeyedArchive

/// Choices for `StoreScanner`.
public struct ScanOptions: Sendable {
    /// The list verdicts are made under: the transformer's defaults unless changed.
    public var allowList: AllowList
    /// Limits for reading each value.
    public var readOptions: KeyedArchiveReadOptions
    /// How many example rows a column report keeps.
    public var maximumExamples: Int
    /// Threads classifying each batch of rows (SQLite itself stays on one). Default: the
    /// active cores.
    public var parallelism: Int
    /// Stack size for those threads. Nil keeps the system's, which suits the default depth
    /// limit (512); callers that raise `readOptions.maximumDepth` must give a stack to match.
    public var workerStackSize: Int?
    /// The model attributes are named and judged by: the store's own by default.
    public var model: ModelChoice = .storeCache
    /// The classes of the app's own transformers (`--transformer`, `--transformers`).
    public var transformers = TransformerAllowLists()
    /// Limits for reading the model.
    public var modelOptions: ModelReadOptions = .default

    public init(allowList: AllowList = .transformerDefault, readOptions: KeyedArchiveReadOptions = .default, maximumExamples: Int = 5,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, workerStackSize: Int? = nil,
                model: ModelChoice = .storeCache, transformers: TransformerAllowLists = TransformerAllowLists()) {
        self.model = model
        self.transformers = transformers
        self.allowList = allowList
        self.readOptions = readOptions
        self.maximumExamples = maximumExamples
        self.parallelism = parallelism
        self.workerStackSize = workerStackSize
    }
}
