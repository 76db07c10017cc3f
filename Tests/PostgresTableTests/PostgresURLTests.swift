@testable import PostgresTable
import Testing

@Suite struct PostgresURLTests {
    @Test(arguments: [
        ("postgres://alice:s3cret@db.example.com:5432/app", "postgres://alice@db.example.com:5432/app", ["s3cret"]),
        ("postgresql://alice:p%40ss@db/app?sslmode=require", "postgresql://alice@db/app?sslmode=require", ["p%40ss", "p@ss"]),
        ("postgres://db/app?password=hunter2&sslmode=verify-full", "postgres://db/app?sslmode=verify-full", ["hunter2"]),
        ("postgres:///app?host=/run/postgresql", "postgres:///app?host=/run/postgresql", []),
        ("postgres://bob@h/app", "postgres://bob@h/app", []),
    ])
    func theShownURLHasNoPassword(url: String, shown: String, secrets: [String]) {
        let parsed = PostgresURL(url, environment: [:])
        #expect(parsed.description == shown)
        #expect(Set(parsed.secrets) == Set(secrets))
    }

    @Test func scrubRemovesTheURLsPasswordAndPGPASSWORDFromAnyText() {
        let url = PostgresURL("postgres://alice:s3cret@h/app", environment: ["PGPASSWORD": "envpass"])
        #expect(url.scrub("bad token \"s3cret\" and envpass") == "bad token \"***\" and ***")
    }

    @Test(arguments: ["postgres://h/db", "POSTGRESQL://h/db"])
    func postgresURLsAreRecognized(_ text: String) {
        #expect(PostgresURL.isPostgresURL(text))
    }

    @Test(arguments: ["store.sqlite", "-", "file:store.sqlite", "mysql://h/db"])
    func otherArgumentsAreNotPostgresURLs(_ text: String) {
        #expect(!PostgresURL.isPostgresURL(text))
    }
}
