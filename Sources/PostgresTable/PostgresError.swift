import PropertyList

/// Why a PostgreSQL table cannot be read or changed, and where.
///
/// Messages never hold a password: everything that comes from libpq or the server passes
/// through `PostgresURL.scrub` first, and the source is named by its redacted URL.
public struct PostgresError: LookupError, RequestError, Sendable, Hashable {
    /// What kind of failure this is, for callers to match (`error.code == .invalidURL`); see `ErrorCode`.
    /// Besides its own kinds, the shared kinds: `notFound` (the table, column or key asked for does not
    /// exist), `invalidRequest` (`--shard 3/2`, `--into` the same column).
    public typealias Code = ErrorCode<PostgresError>

    public static let codeNames: Set<String> = [
        "invalidURL", "cannotConnect", "authenticationFailed", "permissionDenied", "notFound",
        "wrongType", "invalidRequest", "query", "connectionLost", "libraryMissing"
    ]

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

extension ErrorCode where Domain == PostgresError {
    /// The URL does not parse (libpq's own parser says why).
    public static var invalidURL: Self { Self() }

    /// The server cannot be reached in time (refused, unknown host, `--connect-timeout`).
    public static var cannotConnect: Self { Self() }

    /// The server refused the credentials.
    public static var authenticationFailed: Self { Self() }

    /// The role may not do what was asked (`SELECT`, `UPDATE`, `CREATE`).
    public static var permissionDenied: Self { Self() }

    /// A column's type does not fit what was asked of it.
    public static var wrongType: Self { Self() }

    /// A statement failed; `sqlState` says how.
    public static var query: Self { Self() }

    /// The connection was lost mid-run.
    public static var connectionLost: Self { Self() }

    /// libpq, which Archivist opens the first time it reaches a PostgreSQL table, is not
    /// installed (or lacks a function): the message names the package to install.
    public static var libraryMissing: Self { Self() }
}
