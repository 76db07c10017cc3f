import Foundation
import PostgresTable

/// The PostgreSQL server the tests use: `ARCHIVIST_POSTGRES_URL`, which
/// `scripts/postgres-test-server run swift test` sets (and `.ci/run` through it).
///
/// Without the variable the PostgreSQL tests skip; with `ARCHIVIST_REQUIRE_POSTGRES=1` (as CI
/// sets) they run and fail instead, so a CI machine without a server cannot pass by skipping.
public enum PostgresTestServer {
    static let environment = ProcessInfo.processInfo.environment
    /// A superuser's URL, password included.
    public static let url = environment["ARCHIVIST_POSTGRES_URL"]
    public static let socketDirectory = environment["ARCHIVIST_POSTGRES_SOCKET_DIR"]
    public static let required = environment["ARCHIVIST_REQUIRE_POSTGRES"] == "1"
    /// Whether PostgreSQL tests run: there is a server, or CI demands one (and they fail).
    public static let shouldRun = url != nil || required
    public static let skipReason = "no PostgreSQL server: run `scripts/postgres-test-server run swift test`"

    /// The URL, or an error that says why there is none.
    public static func requireURL() throws -> String {
        guard let url else { throw Missing() }
        return url
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "ARCHIVIST_REQUIRE_POSTGRES is set but ARCHIVIST_POSTGRES_URL is not: start a server with scripts/postgres-test-server"
        }
    }

    /// A connection as the superuser.
    package static func connect(readOnly: Bool = false, applicationName: String = "archivist-tests") throws -> PostgresConnection {
        try PostgresConnection(url: PostgresURL(requireURL()), options: .init(applicationName: applicationName, readOnly: readOnly))
    }

    /// The parts of the URL, to build variants (another user, a wrong password, the socket).
    public static func parts() throws -> (user: String, password: String, host: String, port: String, database: String) {
        let url = try requireURL()
        guard let components = URLComponents(string: url), let user = components.user, let password = components.password,
              let host = components.host, let port = components.port else { throw Missing() }
        return (user, password, host, String(port), String(components.path.dropFirst()))
    }

    /// The URL with another user and password.
    public static func url(user: String, password: String) throws -> String {
        let p = try parts()
        return "postgres://\(user):\(password)@\(p.host):\(p.port)/\(p.database)"
    }
}

/// A schema of its own for one test, dropped at the end, so tests can run side by side.
package final class PostgresTestSchema {
    package let name: String
    package let connection: PostgresConnection

    package init() throws {
        connection = try PostgresTestServer.connect()
        name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try connection.execute("CREATE SCHEMA \(name)")
    }

    /// `schema.table`.
    package func qualified(_ table: String) -> String { "\(name).\(table)" }

    package func drop() {
        try? connection.execute("DROP SCHEMA \(name) CASCADE")
    }
}
