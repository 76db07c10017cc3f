import ArchivePayload
import Foundation
import KeyedBlobs
import PropertyList

extension PostgresScanReport {
    /// The report as `archivist scan postgres://…` prints it for people: the kinds of values in
    /// the column, their classes and the allow-list's verdicts.
    ///
    /// - Parameter usesColors: whether to color verdicts and notes (ANSI; for a terminal).
    public func text(usesColors: Bool) -> String {
        PostgresReportText.render(self, colors: ReportPalette(enabled: usesColors))
    }
}

extension PostgresMigrationResult {
    /// The summary `archivist migrate postgres://…` prints for people.
    ///
    /// - Parameter usesColors: whether to color failures (ANSI; for a terminal).
    public func text(usesColors: Bool) -> String {
        PostgresReportText.render(self, colors: ReportPalette(enabled: usesColors))
    }
}

extension PostgresStatusReport {
    /// The table `archivist migrate postgres://… --status` prints: each shard's rows and what
    /// is left to convert.
    ///
    /// - Parameter usesColors: whether to color the closing line (ANSI; for a terminal).
    public func text(usesColors: Bool) -> String {
        PostgresReportText.render(self, colors: ReportPalette(enabled: usesColors))
    }
}

/// The text forms of PostgreSQL scan reports, migration summaries and status tables.
enum PostgresReportText {
    static func heading(_ source: String, _ location: PostgresTableLocation) -> String {
        "\(source): \(location.tableName).\(location.column.name) (\(location.column.typeName)), key \(location.key.name) (\(location.key.typeName))"
    }

    static func render(_ report: PostgresScanReport, colors: ReportPalette) -> String {
        let tally = report.tally
        var out = heading(report.source, report.location)
        if report.shard.count > 1 { out += ", shard \(report.shard)" }
        out += ": \(CountText.number(tally.rowCount)) \(tally.rowCount == 1 ? "row" : "rows")\n"
        out += "  kinds: \(CountText.list(tally.kindCounts.map { ($0.kind.label, $0.count) }))\n"
        if !tally.formats.isEmpty { out += "  formats: \(CountText.list(tally.formatCounts))\n" }
        if tally.inlineFramed > 0 { out += "  Core Data external storage: \(CountText.number(tally.inlineFramed)) inline (0x01 header)\n" }
        if !tally.classes.isEmpty { out += "  classes: \(CountText.list(tally.classCounts))\n" }
        if tally.typedStreamCount > 0 {
            out += "  " + colors.bad("\(CountText.number(tally.typedStreamCount)) NSArchiver typedstream\(tally.typedStreamCount == 1 ? "" : "s")")
                + ", which no secure unarchiver reads: migrate with --to archive (keyed archives of the same objects) or --to json\n"
        }
        if tally.keyedArchiveCount + tally.typedStreamCount > 0 {
            let accepted = colors.good("\(CountText.number(tally.accepted)) accepted")
            let refused = tally.refused > 0 ? colors.bad("\(CountText.number(tally.refused)) refused") : "0 refused"
            let list = report.allowList == .transformerDefault ? "transformer defaults" : report.allowList.classes.joined(separator: ", ")
            var line = "  allow-list (\(list)): \(accepted), \(refused)"
            if !tally.refusedClasses.isEmpty { line += " (\(CountText.list(tally.refusedClassCounts)))" }
            out += line + "\n"
            if !tally.suggestedAdditions.isEmpty {
                out += "  accept with: \(tally.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " "))\n"
                if let snippet = tally.swiftSnippet(allowList: report.allowList) {
                    out += snippet.split(separator: "\n").map { "    \($0)\n" }.joined()
                }
            }
        }
        for example in tally.examples {
            out += colors.dim("  \(report.location.key.name) \(example.key): \(example.message)") + "\n"
        }
        return out
    }

    static func render(_ result: PostgresMigrationResult, colors: ReportPalette) -> String {
        let tally = result.tally
        var out = heading(result.source, result.location)
        out += " → \(result.target.label)"
        var how: [String] = [result.into.map { "into \($0.name) (\($0.typeName))" } ?? "in place"]
        if let backup = result.backupTable { how.append("old values kept in \(backup)") }
        if result.shard.count > 1 { how.append("shard \(result.shard)") }
        if result.workers > 1 { how.append("\(result.workers) workers") }
        out += " (\(how.joined(separator: ", ")))"
        out += result.dryRun ? " (dry run: nothing written)\n" : "\n"
        var reasons: [String] = []
        for reason in MigrationSkipReason.allCases {
            guard let n = tally.skipped[reason] else { continue }
            let label = switch reason {
            case .null: "NULL"
            case .alreadyConverted: "already \(result.target.label)"
            case .changedMeanwhile: "changed by another writer meanwhile"
            case .nothingToRename: "no class to rename"
            }
            reasons.append("\(label) \(CountText.number(n))")
        }
        let verb = result.dryRun ? "would convert" : "converted"
        var summary = "\(verb) \(CountText.number(tally.converted))"
        if tally.copied > 0 { summary += ", \(result.dryRun ? "would copy" : "copied") \(CountText.number(tally.copied)) already \(result.target.label)" }
        summary += ", skipped \(CountText.number(tally.skippedCount))"
        if !reasons.isEmpty { summary += " (\(reasons.joined(separator: ", ")))" }
        let failed = "failed \(CountText.number(tally.failedCount))"
        summary += ", " + (tally.failedCount > 0 ? colors.bad(failed) : failed)
        let rate = tally.elapsed > 0 ? Double(tally.rows) / tally.elapsed : 0
        summary += String(format: " of %@ %@ in %.2f s (%@ rows/s, %d %@", CountText.number(tally.rows), tally.rows == 1 ? "row" : "rows", tally.elapsed,
                          CountText.number(Int(rate)), tally.batches, tally.batches == 1 ? "batch" : "batches")
        if tally.retriedBatches > 0 { summary += ", \(tally.retriedBatches) retried for their locks" }
        if tally.pausedSeconds > 0 { summary += String(format: ", %.0f s paused for replication lag", tally.pausedSeconds) }
        out += summary + ")\n"
        let key = result.location.key.name
        if !tally.changedKeys.isEmpty {
            out += "left as another writer changed them meanwhile (a rerun converts any that need it): \(key) "
            out += keys(tally.changedKeys.map(\.description), total: tally.skipped[.changedMeanwhile] ?? 0) + "\n"
        }
        if !tally.failures.isEmpty {
            out += "rows left untouched:\n"
            var order: [String] = []
            var byMessage: [String: [String]] = [:]
            for failure in tally.failures {
                if byMessage[failure.message] == nil { order.append(failure.message) }
                byMessage[failure.message, default: []].append(failure.key.description)
            }
            for message in order.prefix(20) {
                let all = byMessage[message] ?? []
                out += "  \(key) \(keys(all, total: all.count)): \(message)\n"
            }
            if order.count > 20 { out += "  … \(order.count - 20) other reasons (see --format json)\n" }
            if tally.failedCount > tally.failures.count {
                out += "  … and \(CountText.number(tally.failedCount - tally.failures.count)) more (listed rows are capped; see --format json)\n"
            }
        }
        if !tally.suggestedAdditions.isEmpty {
            out += "to convert the refused rows, rerun with: \(tally.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " "))\n"
        }
        return out
    }

    /// `1, 2, 3 and 7 more`.
    static func keys(_ keys: [String], total: Int, shown: Int = 8) -> String {
        var text = keys.prefix(shown).joined(separator: ", ")
        if total > min(shown, keys.count) { text += " and \(CountText.number(total - min(shown, keys.count))) more" }
        return text
    }

    static func render(_ report: PostgresStatusReport, colors: ReportPalette) -> String {
        var out = heading(report.source, report.location) + " → \(report.target.label)"
        out += report.into.map { " into \($0.name)\n" } ?? " in place\n"
        let columns = ["shard", "rows", "to convert", "done", "NULL", "not convertible"]
        var rows: [[String]] = report.shards.map { shard in
            [shard.shard.description, CountText.number(shard.rows), CountText.number(shard.toConvert), CountText.number(shard.dispositions[.done] ?? 0),
             CountText.number(shard.dispositions[.null] ?? 0), CountText.number(shard.dispositions[.notConvertible] ?? 0)]
        }
        if report.shards.count > 1 {
            func sum(_ d: ValueDisposition) -> Int { report.shards.reduce(0) { $0 + ($1.dispositions[d] ?? 0) } }
            rows.append(["all", CountText.number(report.shards.reduce(0) { $0 + $1.rows }), CountText.number(report.toConvert), CountText.number(sum(.done)),
                         CountText.number(sum(.null)), CountText.number(sum(.notConvertible))])
        }
        let widths = columns.indices.map { index in ([columns[index]] + rows.map { $0[index] }).map(\.count).max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        out += "  " + line(columns) + "\n"
        for row in rows { out += "  " + line(row) + "\n" }
        if report.toConvert == 0 { out += colors.good("nothing left to convert") + "\n" }
        return out
    }
}
