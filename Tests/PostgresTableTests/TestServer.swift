import Foundation
@testable import PostgresTable
import Testing

/// The PostgreSQL server the tests use: `ARCHIVIST_POSTGRES_URL`, which
/// `scripts/postgres-test-server run swift test` sets (and `.ci/run` through it).
///
/// Without the variable the PostgreSQL tests skip; with `ARCHIVIST_REQUIRE_POSTGRES=1` (as CI
/// sets) they run and fail instead, so a CI machine without a server cannot pass by skipping.
enum TestServer {
    static let environment = ProcessInfo.processInfo.environment
    /// A superuser's URL, password included.
    static let url = environment["ARCHIVIST_POSTGRES_URL"]
    static let required = environment["ARCHIVIST_REQUIRE_POSTGRES"] == "1"
    static let shouldRun = url != nil || required
    static let skipReason: Comment = "no PostgreSQL server: run `scripts/postgres-test-server run swift test`"

    /// The URL, or a test failure that says why there is none.
    static func requireURL() throws -> String {
        guard let url else {
            throw TestServerMissing()
        }
        return url
    }

    struct TestServerMissing: Error, CustomStringConvertible {
        var description: String { "ARCHIVIST_REQUIRE_POSTGRES is set but ARCHIVIST_POSTGRES_URL is not: start a server with scripts/postgres-test-server" }
    }

    /// A connection as the superuser.
    static func connect(readOnly: Bool = false) throws -> PostgresConnection {
        try PostgresConnection(url: PostgresURL(requireURL()), options: .init(readOnly: readOnly))
    }

    /// The parts of the URL, to build variants (another user, a wrong password, the socket).
    static func parts() throws -> (user: String, password: String, host: String, port: String, database: String) {
        let url = try requireURL()
        guard let components = URLComponents(string: url), let user = components.user, let password = components.password,
              let host = components.host, let port = components.port else { throw TestServerMissing() }
        return (user, password, host, String(port), String(components.path.dropFirst()))
    }
}

/// A schema of its own for one test, dropped at the end, so tests can run side by side.
final class TestSchema {
    let name: String
    let connection: PostgresConnection

    init() throws {
        connection = try TestServer.connect()
        name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try connection.execute("CREATE SCHEMA \(name)")
    }

    /// `schema.table`, quoted as needed.
    func qualified(_ table: String) -> String { "\(name).\(table)" }

    func drop() {
        try? connection.execute("DROP SCHEMA \(name) CASCADE")
    }
}
