import ArchivePayload
import Foundation
import KeyedBlobs
import PropertyList

/// Machine-readable forms of PostgreSQL scan, migration and status reports, as property-list
/// trees that `JSONPropertyListWriter` writes (the CLI's `--format json`).
extension PostgresKey {
    /// An integer key as a number, a uuid as its string.
    public var jsonValue: PropertyListValue {
        switch self {
        case .integer(let value): .integer(PropertyListInteger(value))
        case .uuid: .string(description)
        }
    }
}

extension PostgresTableLocation {
    func describe(into d: inout PropertyListDictionary) {
        d.append(key: "table", value: .string(tableName))
        d.append(key: "column", value: .string(column.name))
        d.append(key: "columnType", value: .string(column.typeName))
        d.append(key: "key", value: .string(key.name))
        d.append(key: "keyType", value: .string(key.typeName))
    }
}

func integer(_ n: Int) -> PropertyListValue { .integer(PropertyListInteger(n)) }

func counts(_ pairs: [(name: String, count: Int)]) -> PropertyListValue {
    .dictionary(PropertyListDictionary(pairs.map { (.string($0.name), integer($0.count)) }))
}

extension PostgresScanReport {
    public var jsonValue: PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "source", value: .string(source))
        location.describe(into: &d)
        d.append(key: "shard", value: .string(shard.description))
        d.append(key: "rows", value: integer(tally.rowCount))
        d.append(key: "kinds", value: counts(tally.kindCounts.map { ($0.kind.rawValue, $0.count) }))
        d.append(key: "formats", value: counts(tally.formatCounts))
        d.append(key: "classes", value: counts(tally.classCounts))
        var verdict = PropertyListDictionary()
        verdict.append(key: "classes", value: .array(allowList.classes.map { .string($0) }))
        verdict.append(key: "accepted", value: integer(tally.accepted))
        verdict.append(key: "refused", value: integer(tally.refused))
        verdict.append(key: "refusedClasses", value: counts(tally.refusedClassCounts))
        verdict.append(key: "suggestedAdditions", value: .array(tally.suggestedAdditions.map { .string($0) }))
        if let snippet = tally.swiftSnippet(allowList: allowList) { verdict.append(key: "swiftSnippet", value: .string(snippet)) }
        d.append(key: "allowList", value: .dictionary(verdict))
        d.append(key: "examples", value: .array(tally.examples.map { example in
            .dictionary(PropertyListDictionary([
                (.string("key"), example.key.jsonValue), (.string("kind"), .string(example.kind.rawValue)),
                (.string("message"), .string(example.message)),
            ]))
        }))
        d.append(key: "seconds", value: .real((elapsed * 1000).rounded() / 1000))
        return .dictionary(d)
    }
}

extension PostgresMigrationResult {
    public var jsonValue: PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "source", value: .string(source))
        location.describe(into: &d)
        d.append(key: "into", value: into.map { .string($0.name) } ?? .null)
        d.append(key: "backupTable", value: backupTable.map { .string($0.description) } ?? .null)
        d.append(key: "to", value: .string(target.rawValue))
        d.append(key: "dryRun", value: .bool(dryRun))
        d.append(key: "shard", value: .string(shard.description))
        d.append(key: "workers", value: integer(workers))
        d.append(key: "rows", value: integer(tally.rows))
        d.append(key: "converted", value: integer(tally.converted))
        d.append(key: "copied", value: integer(tally.copied))
        d.append(key: "skipped", value: integer(tally.skippedCount))
        d.append(key: "skippedBecause", value: counts(MigrationSkipReason.allCases.compactMap { r in tally.skipped[r].map { (r.rawValue, $0) } }))
        d.append(key: "changedKeys", value: .array(tally.changedKeys.map(\.jsonValue)))
        d.append(key: "failed", value: integer(tally.failedCount))
        d.append(key: "failedBecause", value: counts(MigrationFailureReason.allCases.compactMap { r in tally.failedByReason[r].map { (r.rawValue, $0) } }))
        d.append(key: "failures", value: .array(tally.failures.map { failure in
            .dictionary(PropertyListDictionary([
                (.string("key"), failure.key.jsonValue), (.string("reason"), .string(failure.reason.rawValue)),
                (.string("message"), .string(failure.message)),
            ]))
        }))
        d.append(key: "suggestedAdditions", value: .array(tally.suggestedAdditions.map { .string($0) }))
        d.append(key: "batches", value: integer(tally.batches))
        d.append(key: "retriedBatches", value: integer(tally.retriedBatches))
        d.append(key: "pausedSeconds", value: .real((tally.pausedSeconds * 1000).rounded() / 1000))
        d.append(key: "seconds", value: .real((tally.elapsed * 1000).rounded() / 1000))
        return .dictionary(d)
    }
}

extension PostgresStatusReport {
    public var jsonValue: PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "source", value: .string(source))
        location.describe(into: &d)
        d.append(key: "to", value: .string(target.rawValue))
        d.append(key: "into", value: into.map { .string($0.name) } ?? .null)
        d.append(key: "toConvert", value: integer(toConvert))
        d.append(key: "shards", value: .array(shards.map { shard in
            var s = PropertyListDictionary()
            s.append(key: "shard", value: .string(shard.shard.description))
            s.append(key: "rows", value: integer(shard.rows))
            for disposition in ValueDisposition.allCases {
                s.append(key: .string(disposition.rawValue), value: integer(shard.dispositions[disposition] ?? 0))
            }
            return .dictionary(s)
        }))
        d.append(key: "seconds", value: .real((elapsed * 1000).rounded() / 1000))
        return .dictionary(d)
    }
}
