import ArchivePayload
import KeyedArchive

/// Choices for `StoreScanner`.
public struct ScanOptions: Sendable {
    /// The list verdicts are made under: the transformer's defaults unless changed.
    public var allowList: AllowList
    /// Limits for reading each value.
    public var readOptions: KeyedArchiveReadOptions
    /// How many example rows a column report keeps.
    public var maximumExamples: Int

    public init(allowList: AllowList = .transformerDefault, readOptions: KeyedArchiveReadOptions = .default, maximumExamples: Int = 5) {
        self.allowList = allowList
        self.readOptions = readOptions
        self.maximumExamples = maximumExamples
    }
}
