import ArchivePayload
import CoreDataModel
import Foundation
import KeyedArchive
import PropertyList

extension ScanReport {
    /// The report as `archivist scan` prints it for people: the store, its model, and for each
    /// table the kinds of values of each column, their classes and the allow-list's verdicts,
    /// with the flags that would accept what is refused.
    ///
    /// - Parameter usesColors: whether to color verdicts and notes (ANSI; for a terminal).
    public func text(usesColors: Bool) -> String {
        StoreReportText.render(self, colors: ReportPalette(enabled: usesColors))
    }
}

extension MigrationResult {
    /// The summary `archivist migrate` prints for people: what was converted, skipped and left
    /// untouched (and why), and the model change the app needs.
    ///
    /// - Parameter usesColors: whether to color failures (ANSI; for a terminal).
    public func text(usesColors: Bool) -> String {
        StoreReportText.render(self, colors: ReportPalette(enabled: usesColors))
    }
}

/// The text forms of `scan` reports and `migrate` summaries.
enum StoreReportText {
    static func render(_ report: ScanReport, colors: ReportPalette) -> String {
        var out = ""
        let file = (report.path as NSString).lastPathComponent
        if report.isCoreData {
            var line = "\(file): Core Data store"
            if let type = report.metadata?.storeType { line += " (\(type))" }
            if let uuid = report.metadata?.storeUUID { line += ", store UUID \(uuid)" }
            let names = report.entities.filter { !$0.isPersistentHistory }.map(\.name)
            line += ", \(names.count) \(names.count == 1 ? "entity" : "entities"): \(names.joined(separator: ", "))"
            out += line + "\n"
            if let model = report.model {
                var modelLine = "  model: \(model.source)"
                if case .modelCache = model.source {} else { modelLine += " (\(model.source.path))" }
                if model.versionMatch == .matchesStore { modelLine += ", whose entity hashes equal the store's" }
                out += modelLine + "\n"
            } else if let problem = report.modelProblem {
                out += colors.dim("  model: none (\(problem)); attributes named from the columns") + "\n"
            }
            if let metadata = report.metadata, !metadata.modelVersionHashes.isEmpty {
                out += colors.dim("  model version hashes (v\(metadata.modelVersionHashesVersion.map(String.init) ?? "?")): \(metadata.hashedEntityNames.joined(separator: ", "))") + "\n"
            }
        } else {
            out += "\(file): SQLite database (not a Core Data store): \(CountText.counted(report.tables.count, "table"))\n"
        }
        for table in report.tables {
            let heading = table.entityNames.isEmpty ? table.name : "\(table.entityNames.joined(separator: ", ")) (\(table.name))"
            out += "\n\(heading): \(CountText.counted(table.rowCount, "row"))\n"
            for column in table.columns { out += render(column, allowList: report.allowList, keyColumn: table.keyColumn, colors: colors) }
            if !table.plainColumns.isEmpty {
                let names = table.plainColumns.map { column in
                    let name = column.modelRole.map { plainName($0, root: table.entityNames.first) } ?? (table.entityNames.isEmpty ? column.name : StoreSchema.attributeName(ofColumn: column.name))
                    return "\(name) (\(column.declaredType.isEmpty ? "untyped" : column.declaredType))"
                }
                out += "  plain columns: \(names.joined(separator: ", "))\n"
            }
            if !table.transientAttributes.isEmpty {
                out += colors.dim("  transient (never stored): \(table.transientAttributes.joined(separator: ", "))") + "\n"
            }
        }
        if !report.coreDataTables.isEmpty {
            let listed = report.coreDataTables.map { table in
                table.kind == .joinTable && table.relationship == nil ? table.name : "\(table.name) (\(table.label))"
            }
            out += colors.dim("\nCore Data's own tables, not scanned: \(listed.joined(separator: ", "))") + "\n"
        }
        for warning in report.warnings {
            out += colors.bad("warning: \(warning)") + "\n"
        }
        return out
    }

    static func render(_ column: ColumnReport, allowList: AllowList, keyColumn: String = "Z_PK", colors: ReportPalette) -> String {
        var out = "  \(column.displayName) (\(column.column.name), \(column.column.declaredType.isEmpty ? "untyped" : column.column.declaredType))\n"
        if let attribute = column.attribute {
            var line = "    model: \(attribute.attributeType.xcodeName)"
            if attribute.attributeType == .transformable {
                line += ", transformer \(attribute.valueTransformerName ?? "none (Core Data's insecure NSKeyedUnarchiveFromData)")"
            } else if let name = attribute.valueTransformerName {
                line += ", transformer \(name)"
            }
            if let custom = attribute.customClassName { line += ", custom class \(custom)" }
            out += line + "\n"
        }
        let tally = column.tally
        out += "    kinds: \(tally.rowCount == 0 ? "no rows" : CountText.list(tally.kindCounts.map { ($0.kind.label, $0.count) }))\n"
        if !tally.formats.isEmpty { out += "    formats: \(CountText.list(tally.formatCounts))\n" }
        let external = tally.kinds[.externalReference] ?? 0
        if tally.inlineFramed > 0 || external > 0 {
            var line = "    Core Data external storage: \(CountText.number(tally.inlineFramed)) inline (0x01 header), \(CountText.number(external)) in _EXTERNAL_DATA files (0x02 header)"
            if tally.missingExternalFiles > 0 { line += ", " + colors.bad("\(CountText.number(tally.missingExternalFiles)) of them missing") }
            out += line + "\n"
        }
        if !tally.classes.isEmpty { out += "    classes: \(CountText.list(tally.classCounts))\n" }
        let typedStreams = tally.kinds[.typedStream] ?? 0
        if typedStreams > 0 {
            out += "    " + colors.bad("\(CountText.number(typedStreams)) NSArchiver typedstream\(typedStreams == 1 ? "" : "s")")
                + ", which no secure unarchiver reads: migrate with --to archive (keyed archives of the same objects) or --to json\n"
        }
        if tally.keyedArchiveCount > 0, let appTransformer = column.judgement.appTransformer {
            out += "    judged by the app's own transformer \(appTransformer), not here\n"
            if let flag = column.suggestedTransformerFlag { out += "    to judge it here: \(flag)\n" }
        } else if tally.keyedArchiveCount + typedStreams > 0, let allowList = column.judgement.allowList {
            let accepted = colors.good("\(CountText.number(tally.accepted)) accepted")
            let refused = tally.refused > 0 ? colors.bad("\(CountText.number(tally.refused)) refused") : "0 refused"
            var line = "    allow-list (\(judgedBy(column.judgement, allowList: allowList))): \(accepted), \(refused)"
            if !tally.refusedClasses.isEmpty { line += " (\(CountText.list(tally.refusedClassCounts)))" }
            out += line + "\n"
            if !tally.suggestedAdditions.isEmpty {
                out += "    accept with: \(tally.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " "))\n"
                if let snippet = column.swiftSnippet {
                    out += snippet.split(separator: "\n").map { "      \($0)\n" }.joined()
                }
            }
        }
        for example in tally.examples {
            out += colors.dim("    \(keyColumn) \(example.key): \(example.message)") + "\n"
        }
        return out
    }

    /// A column the model lays out, named by what it holds.
    static func plainName(_ role: StoreColumnRole, root: String?) -> String {
        switch role {
        case .attribute(let entity, let name), .toOne(let entity, let name): entity == root ? name : "\(entity).\(name)"
        case .toOneEntity(_, let name): "\(name)'s entity"
        case .toManyKey(let entity, let name): "\(entity).\(name)'s key"
        case .orderKey(let entity, let name): "\(entity).\(name)'s order"
        }
    }

    /// Whose list a column was judged by, in words.
    static func judgedBy(_ judgement: TransformerJudgement, allowList: AllowList) -> String {
        let list = allowList == .transformerDefault ? "defaults" : allowList.classes.joined(separator: ", ")
        switch judgement.basis {
        case .noModel, .notTransformable: return allowList == .transformerDefault ? "transformer defaults" : allowList.classes.joined(separator: ", ")
        case .secureDefaults: return "NSSecureUnarchiveFromData: \(list)"
        case .insecureTransformer(let name):
            return "\(name) reads any class; as NSSecureUnarchiveFromData would judge it: \(list)"
        case .givenClasses(let name): return "\(name): \(allowList.classes.joined(separator: ", "))"
        case .appCode(let name): return name
        }
    }

    static func render(_ result: MigrationResult, colors: ReportPalette) -> String {
        var out = ""
        let file = (result.path as NSString).lastPathComponent
        let format = switch result.target {
        case .json: "JSON"
        case .propertyList: "binary property list"
        case .xml: "XML property list"
        case .archive: "keyed archive"
        }
        out += "\(file): \(result.location) → \(format)\(result.dryRun ? " (dry run: nothing written)" : "")\n"
        if let backup = result.backupPath {
            out += "backup: \(backup)\n"
        } else if !result.dryRun, result.converted == 0 {
            out += "no backup: nothing was changed\n"
        }
        let skipped = MigrationSkipReason.allCases.compactMap { reason -> String? in
            guard let n = result.skipped[reason] else { return nil }
            let label = switch reason {
            case .null: "NULL"
            case .alreadyConverted: "already \(format)"
            case .nothingToRename: "no class to rename"
            case .changedMeanwhile: "changed by another writer meanwhile"
            }
            return "\(label) \(CountText.number(n))"
        }
        let verb = result.dryRun ? "would convert" : "converted"
        var summary = "\(verb) \(CountText.number(result.converted)), skipped \(CountText.number(result.skippedCount))"
        if !skipped.isEmpty { summary += " (\(skipped.joined(separator: ", ")))" }
        let failed = "failed \(CountText.number(result.failedCount))"
        summary += ", " + (result.failedCount > 0 ? colors.bad(failed) : failed)
        let rate = result.elapsed > 0 ? Double(result.total) / result.elapsed : 0
        summary += String(format: " of %@ in %.2f s (%@ rows/s, %d %@)", CountText.counted(result.total, "row"), result.elapsed,
                          CountText.number(Int(rate)), result.batches, result.batches == 1 ? "batch" : "batches")
        out += summary + "\n"
        if !result.failures.isEmpty {
            out += "rows left untouched:\n"
            out += grouped(result.failures, keyColumn: result.location.table.keyColumn)
            if result.failedCount > result.failures.count {
                out += "  … and \(CountText.number(result.failedCount - result.failures.count)) more (listed rows are capped; see --format json)\n"
            }
        }
        if !result.suggestedAdditions.isEmpty {
            if case .appCode(let name) = result.judgement.basis {
                out += "to convert the refused rows, rerun with the classes \(name) allows: --transformer \(name)=\(result.suggestedAdditions.joined(separator: ","))\n"
            } else if case .givenClasses(let name) = result.judgement.basis {
                let classes = (result.judgement.allowList?.classes ?? []) + result.suggestedAdditions
                out += "to convert the refused rows, rerun with: --transformer \(name)=\(classes.joined(separator: ","))\n"
            } else {
                out += "to convert the refused rows, rerun with: \(result.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " "))\n"
            }
        }
        if let change = result.modelChange {
            out += "model change the app needs: \(change.sentence)\n"
            if change.newTransformer == nil { out += "the Codable type that decodes the new values: \(result.codegenCommand)\n" }
        }
        return out
    }
}

extension StoreReportText {
    /// Failures with the same message on one line, with their keys: 900 refusals of the same
    /// class are one line, not 900.
    static func grouped(_ failures: [MigrationFailure], keyColumn: String = "Z_PK", keysShown: Int = 8, groupsShown: Int = 20) -> String {
        var order: [String] = []
        var keys: [String: [Int64]] = [:]
        for failure in failures {
            if keys[failure.message] == nil { order.append(failure.message) }
            keys[failure.message, default: []].append(failure.primaryKey)
        }
        var out = ""
        for message in order.prefix(groupsShown) {
            let all = keys[message] ?? []
            var list = all.prefix(keysShown).map(String.init).joined(separator: ", ")
            if all.count > keysShown { list += " and \(CountText.number(all.count - keysShown)) more" }
            out += "  \(keyColumn) \(list): \(message)\n"
        }
        if order.count > groupsShown { out += "  … \(order.count - groupsShown) other reasons (see --format json)\n" }
        return out
    }
}
