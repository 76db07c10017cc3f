import ArgumentParser
import PostgresTable

/// What a PostgreSQL source names, for `scan` and `migrate` given a `postgres://` URL.
struct PostgresTableOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The table, as SQL names it: unquoted names fold to lower case, \"Quoted\" ones keep theirs; without a schema, the search path decides.", valueName: "[SCHEMA.]TABLE"))
    var table: String?

    @Option(help: ArgumentHelp("The bytea (or text) column of blobs.", valueName: "COLUMN"))
    var column: String?

    @Option(help: ArgumentHelp("The unique NOT NULL smallint, integer, bigint or uuid column batches are ordered by (default: the primary key).", valueName: "COLUMN"))
    var key: String?

    @Option(help: ArgumentHelp("Take the K-th of N disjoint parts of the keys (by PostgreSQL's hash of the key): N processes, on N machines if need be, together cover every row once.", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp("How long to wait for the server (500ms, 5s, 1min; default 10s or the URL's connect_timeout).", valueName: "DURATION"))
    var connectTimeout: DurationArgument?

    /// Whether any of these flags was given.
    var isUsed: Bool { table != nil || column != nil || key != nil || shard != nil || connectTimeout != nil }

    /// Checks them against the source: required for a URL, refused for a file.
    func validate(source: String) throws {
        guard PostgresURL.isPostgresURL(source) else {
            if isUsed { throw ValidationError("--table, --column, --key, --shard and --connect-timeout are for PostgreSQL URLs (postgres://…)") }
            return
        }
        guard table != nil, column != nil else {
            throw ValidationError("a PostgreSQL source needs --table [SCHEMA.]TABLE and --column COLUMN")
        }
        if let shard {
            do { _ = try PostgresShard(parsing: shard) } catch { throw ValidationError(error.description) }
        }
    }

    var request: PostgresTableLocation.Request {
        PostgresTableLocation.Request(table: table ?? "", column: column ?? "", key: key)
    }

    var parsedShard: PostgresShard { shard.flatMap { try? PostgresShard(parsing: $0) } ?? .all }
}
