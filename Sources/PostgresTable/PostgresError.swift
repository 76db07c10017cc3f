/// Why a PostgreSQL table cannot be read or changed, and where.
///
/// Messages never hold a password: everything that comes from libpq or the server passes
/// through `PostgresURL.scrub` first, and the source is named by its redacted URL.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The URL does not parse (libpq's own parser says why).
        case invalidURL
        /// The server cannot be reached in time (refused, unknown host, `--connect-timeout`).
        case cannotConnect
        /// The server refused the credentials.
        case authenticationFailed
        /// The role may not do what was asked (`SELECT`, `UPDATE`, `CREATE`).
        case permissionDenied
        /// The table, column or key asked for does not exist.
        case notFound
        /// A column's type does not fit what was asked of it.
        case wrongType
        /// The caller asked for something that does not fit (`--shard 3/2`, `--into` the same column).
        case invalidRequest
        /// A statement failed; `sqlState` says how.
        case query
        /// The connection was lost mid-run.
        case connectionLost
    }

    public var code: Code
    public var message: String
    /// The server's SQLSTATE, when a statement failed.
    public var sqlState: String?
    /// `schema.table`, when the error is about one.
    public var table: String?
    public var column: String?

    public init(_ code: Code, _ message: String, sqlState: String? = nil, table: String? = nil, column: String? = nil) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
        self.table = table
        self.column = column
    }

    /// `<what> at <table>.<column>`: the source's name is left to the caller's prefix.
    public var description: String {
        var text = message
        if let table { text += " at " + (column.map { "\(table).\($0)" } ?? table) }
        return text
    }

    /// A lock the batch waited for too long, a deadlock or a serialization failure: the
    /// batch rolls back and is tried again later.
    public var isRetryable: Bool {
        guard let sqlState else { return false }
        return sqlState == "55P03" || sqlState == "40P01" || sqlState == "40001"
    }
}
