import ArchivePayload
import KeyedBlobs

/// What `PostgresScanner` found in a column.
public struct PostgresScanReport: Sendable {
    /// The server and database, as a URL without its password.
    public var source: String
    public var location: PostgresTableLocation
    public var shard: PostgresShard
    /// The list the verdicts were made under.
    public var allowList: AllowList
    /// Kinds, formats, classes and verdicts.
    public var tally: ValueTally<PostgresKey>
    public var elapsed: Double
}
