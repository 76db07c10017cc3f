import ArchivePayload
import Foundation
import KeyedBlobs
import PostgresFixtures
@testable import PostgresTable
import Testing

/// Gentle on a live primary: lock timeouts, replication lag, rate.
@Suite(.enabled(if: PostgresTestServer.shouldRun, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresPacingTests {
    @Test func aBatchWhoseRowsAreLockedIsRetriedLaterNotWaitedOn() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("items")
        try MixedBlobTable(rowCount: 600).create(table, on: schema.connection)
        // Another session holds row 5's lock (in the first batch) for a while.
        let holder = try PostgresTestServer.connect(applicationName: "app")
        try holder.execute("BEGIN")
        _ = try holder.query("SELECT id FROM \(table) WHERE id = 5 FOR UPDATE")
        let release = Thread {
            Thread.sleep(forTimeInterval: 1.5)
            try? holder.execute("COMMIT")
        }
        release.start()
        var options = PostgresMigratorTests.options(batch: 100)
        options.lockTimeout = 0.2
        let start = Date()
        let result = try PostgresMigratorTests.migrate(schema, options)
        #expect(result.tally.retriedBatches >= 1)
        #expect(result.tally.failedByReason[.locked] == nil)
        // The other five batches went ahead while row 5 was locked.
        #expect(result.tally.batches == 6)
        #expect(result.tally.converted == MixedBlobTable(rowCount: 600).counts.filter { $0.key.isConvertible }.values.reduce(0, +))
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test func rowsLockedThroughEveryRetryAreReportedAsLockedAndLeftAlone() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("items")
        try MixedBlobTable(rowCount: 200).create(table, on: schema.connection)
        let before = try PostgresMigratorTests.rows(schema)
        let holder = try PostgresTestServer.connect(applicationName: "app")
        try holder.execute("BEGIN")
        _ = try holder.query("SELECT id FROM \(table) WHERE id = 150 FOR UPDATE")
        defer { try? holder.execute("ROLLBACK") }
        var options = PostgresMigratorTests.options(batch: 100)
        options.lockTimeout = 0.05
        options.migration.retryLimit = 1
        let result = try PostgresMigratorTests.migrate(schema, options)
        // The second batch (101–200) never got its locks: its archives are failures, `locked`.
        #expect((result.tally.failedByReason[.locked] ?? 0) > 0)
        #expect(result.tally.failures.contains { $0.reason == .locked && $0.key == .integer(101) })
        let after = try PostgresMigratorTests.rows(schema)
        for id in 101...200 { #expect(after[Int64(id)] == before[Int64(id)], "id \(id) is left as it was") }
    }

    @Test func aStandbyTooFarBehindPausesTheMigrationAndSaysSo() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("items")
        try MixedBlobTable(rowCount: 300).create(table, on: schema.connection)
        // No standby here: the lag is read from a table the test sets, as pg_stat_replication
        // would say it.
        try schema.connection.execute("CREATE TABLE \(schema.name).lag (seconds float8); INSERT INTO \(schema.name).lag VALUES (30)")
        var options = PostgresMigratorTests.options(batch: 100)
        options.maximumReplicationLag = 10
        options.replicationLagSQL = "SELECT seconds FROM \(schema.name).lag"
        options.migration.pausePollInterval = 0.2
        let lagTable = "\(schema.name).lag"
        // The standby catches up once the migration has said three times that it waits for it.
        var notes: [String] = []
        let result = try PostgresMigrator(options: options).migrate(PostgresURL(PostgresTestServer.requireURL()),
                                                                    .init(table: table, column: "payload")) { progress in
            guard let note = progress.pausedBecause else { return }
            notes.append(note)
            if notes.count == 3 { _ = try? PostgresTestServer.connect().execute("UPDATE \(lagTable) SET seconds = 1") }
        }
        #expect(notes.first == "paused: a standby replays 30.0 s behind (--max-replication-lag 10 s)")
        #expect(result.tally.pausedSeconds >= 0.6)
        #expect(result.tally.converted > 0)
    }

    @Test func theReplicationLagCheckNeedsARoleThatCanSeeIt() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let table = schema.qualified("items")
        try MixedBlobTable(rowCount: 10).create(table, on: schema.connection)
        let role = "writer_\(schema.name)"
        try schema.connection.execute("""
            CREATE ROLE \(role) LOGIN PASSWORD 'pw-\(role)'; GRANT USAGE ON SCHEMA \(schema.name) TO \(role);
            GRANT SELECT, UPDATE ON \(table) TO \(role);
            """)
        defer { try? schema.connection.execute("DROP OWNED BY \(role); DROP ROLE \(role)") }
        var options = PostgresMigratorTests.options()
        options.maximumReplicationLag = 10
        #expect { try PostgresMigrator(options: options).migrate(PostgresURL(PostgresTestServer.url(user: role, password: "pw-\(role)")),
                                                                .init(table: table, column: "payload")) }
            throws: { ($0 as? PostgresError)?.description.contains("grant it pg_monitor") == true }
    }
}
