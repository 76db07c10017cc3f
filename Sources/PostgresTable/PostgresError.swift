/// Why a PostgreSQL table cannot be read or changed, and where.
///
/// Messages never hold a password: everything that comes from libpq or the server passes
/// through `PostgresURL.scrub` first, and the source is named by its redacted URL.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is, for callers to match (`error.code == .invalidURL`).
    ///
    /// A struct with a static member per kind rather than an enum, as swift-protobuf's
    /// `SwiftProtobufError.Code`: a new kind is then an addition, not a change that breaks every
    /// exhaustive `switch` over the codes. Match with `==`, or `switch` with a `default`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        private enum Wrapped: String, Sendable, Hashable {
            case invalidURL, cannotConnect, authenticationFailed, permissionDenied, notFound, wrongType, invalidRequest, query, connectionLost
        }

        private var wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The code named `rawValue` (its member's name), or nil for a name that is none.
        public init?(rawValue: String) {
            guard let wrapped = Wrapped(rawValue: rawValue) else { return nil }
            self.wrapped = wrapped
        }

        /// The member's name (`invalidURL`).
        public var rawValue: String { wrapped.rawValue }

        /// The member's name, as `rawValue`.
        public var description: String { wrapped.rawValue }

        /// The URL does not parse (libpq's own parser says why).
        public static var invalidURL: Code { Code(.invalidURL) }

        /// The server cannot be reached in time (refused, unknown host, `--connect-timeout`).
        public static var cannotConnect: Code { Code(.cannotConnect) }

        /// The server refused the credentials.
        public static var authenticationFailed: Code { Code(.authenticationFailed) }

        /// The role may not do what was asked (`SELECT`, `UPDATE`, `CREATE`).
        public static var permissionDenied: Code { Code(.permissionDenied) }

        /// The table, column or key asked for does not exist.
        public static var notFound: Code { Code(.notFound) }

        /// A column's type does not fit what was asked of it.
        public static var wrongType: Code { Code(.wrongType) }

        /// The caller asked for something that does not fit (`--shard 3/2`, `--into` the same column).
        public static var invalidRequest: Code { Code(.invalidRequest) }

        /// A statement failed; `sqlState` says how.
        public static var query: Code { Code(.query) }

        /// The connection was lost mid-run.
        public static var connectionLost: Code { Code(.connectionLost) }
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
