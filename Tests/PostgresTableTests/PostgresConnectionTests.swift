import Foundation
import PostgresFixtures
@testable import PostgresTable
import Testing

@Suite(.enabled(if: PostgresTestServer.shouldRun, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresConnectionTests {
    @Test func aSuperuserConnectsOverTCPWithItsPassword() throws {
        let connection = try PostgresTestServer.connect()
        let result = try connection.query("SELECT 41 + $1::int8", [.int64(1)])
        #expect(result.int64(0, 0) == 42)
        #expect(connection.serverVersion >= 100_000)
    }

    @Test func aUnixSocketURLConnectsWithoutAPassword() throws {
        let parts = try PostgresTestServer.parts()
        let socket = try #require(PostgresTestServer.socketDirectory)
        let url = PostgresURL("postgres:///\(parts.database)?host=\(socket)&port=\(parts.port)&user=\(parts.user)")
        let connection = try PostgresConnection(url: url)
        #expect(try connection.query("SELECT current_user::text").string(0, 0) == parts.user)
    }

    @Test func PGPASSWORDIsUsedWhenTheURLHasNoPassword() throws {
        let parts = try PostgresTestServer.parts()
        let url = PostgresURL("postgres://\(parts.user)@\(parts.host):\(parts.port)/\(parts.database)")
        setenv("PGPASSWORD", parts.password, 1)
        defer { unsetenv("PGPASSWORD") }
        let connection = try PostgresConnection(url: url)
        #expect(try connection.query("SELECT 1::int4").int64(0, 0) == 1)
    }

    @Test func aWrongPasswordIsAnAuthenticationFailureThatDoesNotShowIt() throws {
        let parts = try PostgresTestServer.parts()
        let wrong = "Wr0ngPassw0rdSecret"
        let url = PostgresURL("postgres://\(parts.user):\(wrong)@\(parts.host):\(parts.port)/\(parts.database)")
        #expect(url.description == "postgres://\(parts.user)@\(parts.host):\(parts.port)/\(parts.database)")
        do {
            _ = try PostgresConnection(url: url)
            Issue.record("connected with a wrong password")
        } catch {
            #expect(error.code == .authenticationFailed)
            #expect(error.description.contains("password authentication failed"))
            #expect(!error.description.contains(wrong))
            #expect(!error.description.contains(parts.password))
        }
    }

    @Test func anUnreachableServerFailsWithinTheConnectTimeout() throws {
        // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): routed nowhere, so the connection hangs
        // until the timeout, or fails at once where the network refuses it.
        let url = PostgresURL("postgres://nobody:pw@192.0.2.1:5432/db")
        let start = Date()
        #expect(throws: PostgresError.self) { try PostgresConnection(url: url, options: .init(connectTimeout: 2)) }
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func aRefusedPortIsCannotConnect() throws {
        let parts = try PostgresTestServer.parts()
        // Port 1 on localhost: nothing listens there.
        let url = PostgresURL("postgres://\(parts.user):\(parts.password)@127.0.0.1:1/\(parts.database)")
        do {
            _ = try PostgresConnection(url: url, options: .init(connectTimeout: 2))
            Issue.record("connected to port 1")
        } catch {
            #expect(error.code == .cannotConnect)
            #expect(!error.description.contains(parts.password))
        }
    }

    @Test(arguments: ["postgres://u:Secr3tPass@host:notaport/db", "postgres://u:Secr3t%zzPass@host/db", "postgres://h/db?nosuchoption=1"])
    func aMalformedURLIsRefusedByLibpqWithoutItsPassword(_ text: String) throws {
        do {
            _ = try PostgresConnection(url: PostgresURL(text))
            Issue.record("connected with \(text)")
        } catch {
            #expect(error.code == .invalidURL, "\(error)")
            #expect(!error.description.contains("Secr3t"))
        }
    }

    @Test func aFailedStatementCarriesItsSQLState() throws {
        let connection = try PostgresTestServer.connect()
        do {
            _ = try connection.query("SELECT * FROM no_such_table_anywhere")
            Issue.record("selected from a missing table")
        } catch {
            #expect(error.sqlState == "42P01")
        }
        // The connection stays usable.
        #expect(try connection.query("SELECT 2::int8").int64(0, 0) == 2)
    }

    @Test func byteaAndArraysTravelInBinary() throws {
        let connection = try PostgresTestServer.connect()
        let blobs: [Data?] = [Data([0, 1, 2, 255]), nil, Data()]
        let result = try connection.query("SELECT k, v FROM unnest($1::int8[], $2::bytea[]) AS t(k, v) ORDER BY k",
                                          [.array([1, 2, 3].map { PostgresBinary.int64($0) }, elementType: PostgresType.int8),
                                           .array(blobs, elementType: PostgresType.bytea)])
        #expect(result.rowCount == 3)
        #expect(result.data(0, 1) == Data([0, 1, 2, 255]))
        #expect(result.isNull(1, 1))
        #expect(result.data(2, 1) == Data())
    }
}
