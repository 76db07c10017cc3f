/// One of N disjoint parts of a table's keys (`--shard K/N`), by a hash of the key.
///
/// Together the N shards hold every row exactly once, whichever machine runs each and whenever
/// it starts: a row's shard depends on its key alone. Workers of one process split their shard
/// the same way, as shard `K + N·w` of `N·W`, which is a part of shard K of N.
public struct PostgresShard: Sendable, Hashable, CustomStringConvertible {
    /// From 1 to `count`.
    public var index: Int
    public var count: Int

    /// The whole table.
    public static let all = PostgresShard(uncheckedIndex: 1, count: 1)

    init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// - Throws: `.invalidRequest` unless `1 ≤ index ≤ count`.
    public init(index: Int, count: Int) throws(PostgresError) {
        guard count >= 1, count <= 1 << 20 else {
            throw PostgresError(.invalidRequest, "--shard \(index)/\(count): N must be from 1 to \(1 << 20)")
        }
        guard index >= 1, index <= count else {
            throw PostgresError(.invalidRequest, "--shard \(index)/\(count): K must be from 1 to N (\(count))")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws(PostgresError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw PostgresError(.invalidRequest, "--shard \(text): expected K/N, such as 1/4")
        }
        try self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The part of this shard that worker `worker` (from 0) of `workers` takes.
    public func split(worker: Int, of workers: Int) -> PostgresShard {
        PostgresShard(uncheckedIndex: index + count * worker, count: count * workers)
    }

    /// The SQL condition for rows of this shard (empty for the whole table).
    func condition(hash: String) -> String {
        count == 1 ? "" : "\(hash) % \(count) = \(index - 1)"
    }
}
