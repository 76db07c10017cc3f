/// What became of a batch's writes.
public struct KeyedBlobWrite: Sendable {
    /// Rows written.
    public var written: Set<Int>
    /// Rows the database refused, with its reason; left as they were.
    public var rejected: [Int: String]

    public init(written: Set<Int>, rejected: [Int: String] = [:]) {
        self.written = written
        self.rejected = rejected
    }
}
