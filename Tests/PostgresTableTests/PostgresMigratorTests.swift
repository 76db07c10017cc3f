import ArchivePayload
import Foundation
import KeyedBlobs
import PostgresFixtures
@testable import PostgresTable
import Testing

@Suite(.enabled(if: PostgresTestServer.shouldRun, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresMigratorTests {
    static func options(_ target: ConversionTarget = .json, dryRun: Bool = false, batch: Int = 100, workers: Int = 1,
                        shard: PostgresShard = .all, into: String? = nil, backup: String? = nil) -> PostgresMigrationOptions {
        let conversion = ConversionOptions(target: target, allowList: .transformerDefault(adding: MixedBlobTable.allowedClasses))
        return PostgresMigrationOptions(migration: KeyedBlobMigrationOptions(conversion: conversion, dryRun: dryRun, batchSize: batch),
                                        workers: workers, shard: shard, into: into, backupTable: backup)
    }

    static func migrate(_ schema: PostgresTestSchema, _ options: PostgresMigrationOptions, column: String = "payload",
                        table: String = "items") throws -> PostgresMigrationResult {
        try PostgresMigrator(options: options).migrate(PostgresURL(PostgresTestServer.requireURL()),
                                                       .init(table: schema.qualified(table), column: column))
    }

    /// Every row's id and payload.
    static func rows(_ schema: PostgresTestSchema, column: String = "payload", table: String = "items") throws -> [Int64: Data?] {
        let result = try schema.connection.query("SELECT id, \(column)::bytea FROM \(schema.qualified(table)) ORDER BY id")
        var rows: [Int64: Data?] = [:]
        for row in 0..<result.rowCount { rows[result.int64(row, 0) ?? -1] = result.data(row, 1) }
        return rows
    }

    @Test func migrateConvertsExactlyTheArchivesAndReportsTheRestWithTheirKeys() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        let fixture = MixedBlobTable(rowCount: 1_000)
        try fixture.create(schema.qualified("items"), on: schema.connection)
        let counts = fixture.counts
        let result = try Self.migrate(schema, Self.options())
        let tally = result.tally
        #expect(tally.rows == 1_000)
        #expect(tally.converted == counts[.uiColor]! + counts[.stringArray]! + counts[.seed]!)
        #expect(tally.skipped == [.null: counts[.null]!, .alreadyConverted: counts[.json]!])
        #expect(tally.failedByReason == [.notAnArchive: counts[.png]! + counts[.plainPlist]!, .unreadable: counts[.damaged]!,
                                         .unmappable: counts[.cycle]!])
        #expect(tally.failures.map(\.key).contains(.integer(98)))
        #expect(tally.failures.map(\.key) == tally.failures.map(\.key).sorted())
        let rows = try Self.rows(schema)
        for id in 1...1_000 {
            let value = rows[Int64(id)] ?? nil
            switch MixedBlobTable.kind(of: id) {
            case .uiColor:
                #expect(try JSONDecoder().decode(MixedBlobTable.Color.self, from: try #require(value)).matches(MixedBlobTable.color(of: id)))
            case .stringArray:
                #expect(try JSONDecoder().decode([String].self, from: try #require(value)) == MixedBlobTable.strings(of: id))
            case .null:
                #expect(value == nil)
            case .png, .plainPlist, .damaged, .cycle:
                #expect(value == (try MixedBlobTable.Values().value(of: id)))
            case .seed, .json:
                #expect(value.map { $0.first == UInt8(ascii: "{") || $0.first == UInt8(ascii: "[") || $0.first == UInt8(ascii: "\"") } == true)
            }
        }
        // A rerun finds nothing left to do.
        let again = try Self.migrate(schema, Self.options())
        #expect(again.tally.converted == 0)
        #expect(again.tally.skipped[.alreadyConverted] == tally.converted + counts[.json]!)
        #expect(try Self.rows(schema) == rows)
    }

    @Test func aDryRunCountsTheSameAndWritesNothing() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        try MixedBlobTable(rowCount: 300).create(schema.qualified("items"), on: schema.connection)
        let before = try Self.rows(schema)
        let dry = try Self.migrate(schema, Self.options(dryRun: true))
        #expect(try Self.rows(schema) == before)
        let real = try Self.migrate(schema, Self.options())
        #expect(dry.tally.converted == real.tally.converted)
        #expect(dry.tally.failedByReason == real.tally.failedByReason)
    }

    @Test func intoAJsonbColumnLeavesTheSourceAndARerunSkipsFilledRows() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        try MixedBlobTable(rowCount: 300).create(schema.qualified("items"), on: schema.connection)
        try schema.connection.execute("ALTER TABLE \(schema.qualified("items")) ADD COLUMN doc jsonb")
        let before = try Self.rows(schema)
        let result = try Self.migrate(schema, Self.options(into: "doc"))
        #expect(result.into?.name == "doc")
        #expect(try Self.rows(schema) == before)
        let check = try schema.connection.query("SELECT (doc->>'red')::float8, id FROM \(schema.qualified("items")) WHERE id = 1")
        #expect(check.double(0, 0).map(Float.init) == Float(MixedBlobTable.color(of: 1).red))
        // Values that were JSON already are copied, so the new column is complete.
        let filled = try schema.connection.query("SELECT count(*)::int8 FROM \(schema.qualified("items")) WHERE doc IS NOT NULL")
        #expect(filled.int64(0, 0) == Int64(result.tally.converted + result.tally.copied))
        #expect(result.tally.copied == MixedBlobTable(rowCount: 300).counts[.json])
        let again = try Self.migrate(schema, Self.options(into: "doc"))
        #expect(again.tally.converted == 0)
        #expect(again.tally.copied == 0)
        #expect(again.tally.skipped[.alreadyConverted] == result.tally.converted + result.tally.copied)
    }

    @Test func theBackupTableHoldsEachChangedRowsOldValueOnce() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        try MixedBlobTable(rowCount: 300).create(schema.qualified("items"), on: schema.connection)
        let before = try Self.rows(schema)
        let result = try Self.migrate(schema, Self.options(backup: "items_backup"))
        #expect(result.backupTable?.description == "\(schema.name).items_backup")
        let backup = try Self.rows(schema, table: "items_backup")
        #expect(backup.count == result.tally.converted)
        for (id, old) in backup { #expect(before[id] == old) }
        // Restoring is one statement.
        try schema.connection.execute("UPDATE \(schema.qualified("items")) t SET payload = b.payload FROM \(schema.qualified("items_backup")) b WHERE t.id = b.id")
        #expect(try Self.rows(schema) == before)
    }

    @Test func shardsAreDisjointAndTogetherCoverEveryRow() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        try MixedBlobTable(rowCount: 600).create(schema.qualified("items"), on: schema.connection)
        var converted = 0
        var rows = 0
        for index in 1...3 {
            let result = try Self.migrate(schema, Self.options(workers: 2, shard: try PostgresShard(index: index, count: 3)))
            converted += result.tally.converted
            rows += result.tally.rows
            #expect(result.tally.rows > 150 && result.tally.rows < 250)
        }
        #expect(rows == 600)
        let all = try Self.migrate(schema, Self.options(dryRun: true))
        #expect(all.tally.converted == 0)
        #expect(converted == all.tally.skipped[.alreadyConverted]! - MixedBlobTable(rowCount: 600).counts[.json]!)
    }

    @Test(arguments: [("3/2", "K must be from 1 to N"), ("0/2", "K must be from 1 to N"), ("1/0", "N must be from 1"), ("a/b", "expected K/N")])
    func aShardOutsideItsCountIsRefused(text: String, message: String) {
        #expect { try PostgresShard(parsing: text) } throws: { ($0 as? PostgresError)?.description.contains(message) == true }
    }

    @Test func badRequestsAreRefusedBeforeAnythingIsWritten() throws {
        let schema = try PostgresTestSchema()
        defer { schema.drop() }
        try MixedBlobTable(rowCount: 50).create(schema.qualified("items"), on: schema.connection)
        try schema.connection.execute("""
            ALTER TABLE \(schema.qualified("items")) ADD COLUMN n integer, ADD COLUMN t text, ADD COLUMN j jsonb;
            CREATE TABLE \(schema.qualified("nokey")) (id bigint, payload bytea);
            CREATE TABLE \(schema.qualified("textkey")) (id text PRIMARY KEY, payload bytea);
            CREATE VIEW \(schema.qualified("v")) AS SELECT * FROM \(schema.qualified("items"));
            """)
        let before = try Self.rows(schema)
        func refusal(_ options: PostgresMigrationOptions, table: String = "items", column: String = "payload") -> PostgresError? {
            do {
                _ = try Self.migrate(schema, options, column: column, table: table)
                return nil
            } catch let error as PostgresError {
                return error
            } catch {
                return nil
            }
        }
        #expect(refusal(Self.options(), table: "missing")?.code == .notFound)
        #expect(refusal(Self.options(), column: "nosuch")?.code == .notFound)
        #expect(refusal(Self.options(), column: "n")?.code == .wrongType)
        #expect(refusal(Self.options(), table: "v")?.description.contains("is a view") == true)
        #expect(refusal(Self.options(), table: "nokey")?.description.contains("--key") == true)
        #expect(refusal(Self.options(), table: "textkey")?.description.contains("--key") == true)
        #expect(refusal(Self.options(.propertyList, into: "j"))?.code == .wrongType)
        #expect(refusal(Self.options(.propertyList, into: "t"))?.code == .wrongType)
        #expect(refusal(Self.options(into: "n"))?.code == .wrongType)
        #expect(refusal(Self.options(into: "payload"))?.code == .invalidRequest)
        #expect(refusal(Self.options(into: "j", backup: "b"))?.code == .invalidRequest)
        #expect(try Self.rows(schema) == before)
        let tables = try schema.connection.query("SELECT count(*)::int8 FROM pg_tables WHERE schemaname = $1", [.text(schema.name)])
        #expect(tables.int64(0, 0) == 3)
    }
}
