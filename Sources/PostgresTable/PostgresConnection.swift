internal import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq, used by one thread at a time.
///
/// libpq gives every convention a PostgreSQL user expects: the URL's parameters (`sslmode`,
/// `host=/socket/dir`, `connect_timeout`…), `PG*` environment variables and `~/.pgpass`.
/// Errors are one line, with any password removed.
package final class PostgresConnection: @unchecked Sendable {
    /// How to connect.
    package struct Options: Sendable {
        /// Seconds to wait for the server; nil keeps the URL's `connect_timeout`, else
        /// `PGCONNECT_TIMEOUT`, else 10. libpq counts whole seconds, 2 at least.
        package var connectTimeout: Double?
        /// Shown in `pg_stat_activity`, unless the URL names one.
        package var applicationName = "archivist"
        /// Make every transaction read-only (`default_transaction_read_only`).
        package var readOnly = false

        package init(connectTimeout: Double? = nil, applicationName: String = "archivist", readOnly: Bool = false) {
            self.connectTimeout = connectTimeout
            self.applicationName = applicationName
            self.readOnly = readOnly
        }
    }

    static let defaultConnectTimeout = 10

    let handle: OpaquePointer
    package let url: PostgresURL
    /// Passwords to keep out of messages: the URL's, `PGPASSWORD`, and the one libpq used
    /// (which may come from `~/.pgpass`).
    let secrets: [String]

    /// Connects.
    ///
    /// - Throws: `PostgresError` `.invalidURL`, `.cannotConnect` or `.authenticationFailed`;
    ///   `.libraryMissing` when libpq is not installed.
    package init(url: PostgresURL, options: Options = Options(),
                 environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresError) {
        self.url = url
        try LibPQ.load()
        var errorMessage: UnsafeMutablePointer<CChar>?
        if let parsed = PQconninfoParse(url.text, &errorMessage) {
            PQconninfoFree(parsed)
        } else {
            let reason = errorMessage.map { String(cString: $0) } ?? "libpq cannot parse it"
            PQfreemem(errorMessage)
            throw PostgresError(.invalidURL, "not a valid PostgreSQL URL: " + url.scrub(Self.oneLine(reason)))
        }
        // Keywords before dbname are defaults the URL may override; those after override it.
        var keywords = ["fallback_application_name", "client_encoding"]
        var values = [options.applicationName, "UTF8"]
        if options.connectTimeout == nil, environment["PGCONNECT_TIMEOUT"] == nil {
            keywords.append("connect_timeout")
            values.append(String(Self.defaultConnectTimeout))
        }
        keywords.append("dbname")
        values.append(url.text)
        if let timeout = options.connectTimeout {
            keywords.append("connect_timeout")
            values.append(String(max(2, Int(timeout.rounded(.up)))))
        }
        let connection = Self.withCStrings(keywords) { k in
            Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let connection else { throw PostgresError(.cannotConnect, "libpq could not allocate a connection") }
        var secrets = url.secrets
        if let used = PQpass(connection).map({ String(cString: $0) }), !used.isEmpty { secrets.append(used) }
        self.secrets = secrets
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = url.scrub(Self.oneLine(String(cString: PQerrorMessage(connection))), also: secrets)
            PQfinish(connection)
            let lower = message.lowercased()
            if Self.invalidValueMessages.contains(where: lower.contains) {
                // libpq checks some values (the port, sslmode) only when it connects.
                throw PostgresError(.invalidURL, "not a valid PostgreSQL URL: " + message)
            }
            let code: PostgresError.Code = lower.contains("authentication failed") || lower.contains("no password supplied")
                ? .authenticationFailed : .cannotConnect
            throw PostgresError(code, "cannot connect: " + message)
        }
        handle = connection
        // Notices (such as "relation already exists, skipping") are not for our users.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // Batches are small index scans: fanning each out to parallel workers (which a shard's
        // hash filter makes the planner want) costs more than it gives, on someone's primary.
        var settings = "SET max_parallel_workers_per_gather = 0"
        if options.readOnly { settings += "; SET default_transaction_read_only = on" }
        try execute(settings)
    }

    deinit { PQfinish(handle) }

    /// How libpq words a connection value it refuses while connecting.
    static let invalidValueMessages = ["invalid integer value", "invalid port number", "invalid sslmode value",
                                       "invalid value for parameter", "invalid target_session_attrs value"]

    /// The server's major and minor version, as 150018 for 15.18.
    package var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// The role the session runs as.
    package var user: String { String(cString: PQuser(handle)) }

    /// Runs statements that return no rows (`BEGIN`, `SET …`), in the simple protocol.
    package func execute(_ sql: String) throws(PostgresError) {
        guard let result = PQexec(handle, sql) else { throw lostError() }
        try check(PostgresResult(result))
    }

    /// Runs one statement with parameters; every column of the result is in binary format.
    package func query(_ sql: String, _ parameters: [PostgresParameter] = []) throws(PostgresError) -> PostgresResult {
        // All parameter bytes in one buffer, so every pointer stays valid for the call.
        var buffer = Data()
        var offsets: [Int] = []
        for parameter in parameters {
            offsets.append(buffer.count)
            if let bytes = parameter.bytes {
                buffer.append(bytes)
                if !parameter.isBinary { buffer.append(0) }
            }
        }
        buffer.append(0) // never empty, so an empty value still has an address
        let types = parameters.map { Oid($0.type) }
        let lengths = parameters.map { Int32(clamping: $0.bytes?.count ?? 0) }
        let formats = parameters.map { Int32($0.isBinary ? 1 : 0) }
        let raw: OpaquePointer? = buffer.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> OpaquePointer? in
            let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
            let values: [UnsafePointer<CChar>?] = parameters.indices.map { index in
                guard parameters[index].bytes != nil else { return nil }
                return base.map { UnsafePointer($0 + offsets[index]) }
            }
            return PQexecParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, 1)
        }
        guard let raw else { throw lostError() }
        let result = PostgresResult(raw)
        try check(result)
        return result
    }

    /// Throws the statement's error, if it failed.
    func check(_ result: PostgresResult) throws(PostgresError) {
        switch PQresultStatus(result.handle) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            if PQstatus(handle) != CONNECTION_OK { throw lostError() }
            func field(_ code: Character) -> String? {
                PQresultErrorField(result.handle, Int32(code.asciiValue ?? 0)).map { String(cString: $0) }
            }
            let state = field("C")
            var message = field("M") ?? Self.oneLine(String(cString: PQresultErrorMessage(result.handle)))
            if let detail = field("D") { message += " (\(detail))" }
            message = url.scrub(Self.oneLine(message), also: secrets)
            let code: PostgresError.Code = switch state {
            case "42501": .permissionDenied
            case "42P01": .notFound
            default: .query
            }
            throw PostgresError(code, message, sqlState: state)
        }
    }

    func lostError() -> PostgresError {
        PostgresError(.connectionLost, "the connection to the server was lost: "
                      + url.scrub(Self.oneLine(String(cString: PQerrorMessage(handle))), also: secrets))
    }

    /// libpq's messages span lines ("connection to server … failed: FATAL:  …\n"); ours are one.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
            .replacingOccurrences(of: ":  ", with: ": ")
    }

    /// `body` with the strings as a NULL-terminated array of C strings.
    static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        // Allocated here rather than borrowed from an array: never empty (the final NULL), so
        // no pointer needs unwrapping.
        let pointers = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: copies.count + 1)
        defer { pointers.deallocate() }
        for (index, copy) in copies.enumerated() { (pointers + index).initialize(to: copy.map { UnsafePointer($0) }) }
        (pointers + copies.count).initialize(to: nil)
        return body(pointers)
    }

    /// `"name"`, with inner quotes doubled: an identifier exactly as stored.
    package static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
