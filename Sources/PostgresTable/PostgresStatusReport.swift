import KeyedBlobs

/// How many rows of each part of the keys a migration still has to do (`migrate --status`).
public struct PostgresStatusReport: Sendable {
    public var source: String
    public var location: PostgresTableLocation
    public var target: ConversionTarget
    /// The column a migration writes, when not in place.
    public var into: PostgresColumn?
    /// One entry per shard, 1 to N.
    public var shards: [Shard]
    public var elapsed: Double

    public struct Shard: Sendable, Hashable {
        public var shard: PostgresShard
        public var rows = 0
        /// Rows by what a migration still has to do with them.
        public var dispositions: [ValueDisposition: Int] = [:]

        public var toConvert: Int { dispositions[.toConvert] ?? 0 }
    }

    /// The rows still to convert, over every shard.
    public var toConvert: Int { shards.reduce(0) { $0 + $1.toConvert } }
}
