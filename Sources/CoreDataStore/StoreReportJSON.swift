import ArchivePayload
import CoreDataModel
import Foundation
import PropertyList

/// Machine-readable forms of scan reports and migration results, as property-list trees that
/// `JSONPropertyListWriter` writes (the CLI's `--format json`).
extension ScanReport {
    public var jsonValue: PropertyListValue {
        var root = PropertyListDictionary()
        root.append(key: "file", value: .string(path))
        root.append(key: "coreData", value: .bool(isCoreData))
        if let metadata {
            var m = PropertyListDictionary()
            if let version = metadata.version { m.append(key: "version", value: .integer(PropertyListInteger(version))) }
            if let uuid = metadata.uuid { m.append(key: "uuid", value: .string(uuid)) }
            if let type = metadata.storeType { m.append(key: "storeType", value: .string(type)) }
            if let uuid = metadata.storeUUID { m.append(key: "storeUUID", value: .string(uuid)) }
            var hashes = PropertyListDictionary()
            for name in metadata.hashedEntityNames {
                hashes.append(key: .string(name), value: .string(metadata.modelVersionHashes[name]?.base64EncodedString() ?? ""))
            }
            m.append(key: "modelVersionHashes", value: .dictionary(hashes))
            if let v = metadata.modelVersionHashesVersion { m.append(key: "modelVersionHashesVersion", value: .integer(PropertyListInteger(v))) }
            if let v = metadata.frameworkVersion { m.append(key: "frameworkVersion", value: .integer(PropertyListInteger(v))) }
            root.append(key: "metadata", value: .dictionary(m))
        }
        root.append(key: "entities", value: .array(entities.map { entity in
            var e = PropertyListDictionary()
            e.append(key: "id", value: .integer(PropertyListInteger(entity.id)))
            e.append(key: "name", value: .string(entity.name))
            e.append(key: "super", value: .integer(PropertyListInteger(entity.superID)))
            e.append(key: "max", value: .integer(PropertyListInteger(entity.maximumPrimaryKey)))
            e.append(key: "table", value: .string(entity.table))
            return .dictionary(e)
        }))
        root.append(key: "model", value: model.map(\.summaryJSON) ?? .null)
        if let modelProblem { root.append(key: "modelProblem", value: .string(modelProblem)) }
        root.append(key: "allowList", value: .array(allowList.classes.map { .string($0) }))
        root.append(key: "tables", value: .array(tables.map { $0.jsonValue(allowList: allowList) }))
        root.append(key: "internalTables", value: .array(internalTables.map { .string($0) }))
        root.append(key: "coreDataTables", value: .array(coreDataTables.map { table in
            var t = PropertyListDictionary()
            t.append(key: "name", value: .string(table.name))
            t.append(key: "kind", value: .string(table.kind.rawValue))
            t.append(key: "relationship", value: table.relationship.map { .string($0) } ?? .null)
            return .dictionary(t)
        }))
        root.append(key: "warnings", value: .array(warnings.map { .string($0) }))
        return .dictionary(root)
    }
}

extension TableReport {
    func jsonValue(allowList: AllowList) -> PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "name", value: .string(name))
        d.append(key: "entities", value: .array(entityNames.map { .string($0) }))
        d.append(key: "rows", value: .integer(PropertyListInteger(rowCount)))
        d.append(key: "keyColumn", value: .string(keyColumn))
        d.append(key: "columns", value: .array(columns.map { $0.jsonValue(allowList: allowList) }))
        d.append(key: "transientAttributes", value: .array(transientAttributes.map { .string($0) }))
        d.append(key: "plainColumns", value: .array(plainColumns.map { column in
            .dictionary(PropertyListDictionary([(.string("column"), .string(column.name)), (.string("declaredType"), .string(column.declaredType))]))
        }))
        return .dictionary(d)
    }
}

extension ColumnReport {
    static func counts(_ pairs: [(name: String, count: Int)]) -> PropertyListValue {
        .dictionary(PropertyListDictionary(pairs.map { (.string($0.name), .integer(PropertyListInteger($0.count))) }))
    }

    func jsonValue(allowList: AllowList) -> PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "attribute", value: .string(displayName))
        d.append(key: "table", value: .string(table))
        d.append(key: "column", value: .string(column.name))
        d.append(key: "declaredType", value: .string(column.declaredType))
        if let attribute {
            var m = PropertyListDictionary()
            m.append(key: "attributeType", value: .string(attribute.attributeType.contentsName))
            m.append(key: "valueTransformerName", value: attribute.valueTransformerName.map { .string($0) } ?? .null)
            m.append(key: "customClassName", value: attribute.customClassName.map { .string($0) } ?? .null)
            d.append(key: "model", value: .dictionary(m))
        } else {
            d.append(key: "model", value: .null)
        }
        d.append(key: "rows", value: .integer(PropertyListInteger(tally.rowCount)))
        d.append(key: "kinds", value: Self.counts(tally.kindCounts.map { ($0.kind.rawValue, $0.count) }))
        d.append(key: "formats", value: Self.counts(tally.formatCounts))
        d.append(key: "inlineFramed", value: .integer(PropertyListInteger(tally.inlineFramed)))
        d.append(key: "externalReferences", value: .integer(PropertyListInteger(tally.kinds[.externalReference] ?? 0)))
        d.append(key: "missingExternalFiles", value: .integer(PropertyListInteger(tally.missingExternalFiles)))
        d.append(key: "classes", value: Self.counts(tally.classCounts))
        var verdict = PropertyListDictionary()
        verdict.append(key: "judgedBy", value: judgement.judgedBy.map { .string($0) } ?? .null)
        verdict.append(key: "judged", value: .bool(judgement.isJudged))
        verdict.append(key: "basis", value: .string(judgement.basisCode))
        verdict.append(key: "classes", value: judgement.allowList.map { .array($0.classes.map { .string($0) }) } ?? .null)
        if let flag = suggestedTransformerFlag { verdict.append(key: "judgeWith", value: .string(flag)) }
        verdict.append(key: "accepted", value: .integer(PropertyListInteger(tally.accepted)))
        verdict.append(key: "refused", value: .integer(PropertyListInteger(tally.refused)))
        verdict.append(key: "refusedClasses", value: Self.counts(tally.refusedClassCounts))
        verdict.append(key: "suggestedAdditions", value: .array(tally.suggestedAdditions.map { .string($0) }))
        if let snippet = swiftSnippet { verdict.append(key: "swiftSnippet", value: .string(snippet)) }
        d.append(key: "allowList", value: .dictionary(verdict))
        d.append(key: "examples", value: .array(tally.examples.map { example in
            .dictionary(PropertyListDictionary([
                (.string("primaryKey"), .integer(PropertyListInteger(example.key))),
                (.string("kind"), .string(example.kind.rawValue)), (.string("message"), .string(example.message)),
            ]))
        }))
        return .dictionary(d)
    }
}

extension MigrationResult {
    public var jsonValue: PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "file", value: .string(path))
        d.append(key: "attribute", value: .string(location.description))
        d.append(key: "table", value: .string(location.table.name))
        d.append(key: "column", value: .string(location.column.name))
        d.append(key: "to", value: .string(target.rawValue))
        d.append(key: "dryRun", value: .bool(dryRun))
        d.append(key: "backup", value: backupPath.map { .string($0) } ?? .null)
        d.append(key: "rows", value: .integer(PropertyListInteger(total)))
        d.append(key: "converted", value: .integer(PropertyListInteger(converted)))
        d.append(key: "skipped", value: .integer(PropertyListInteger(skippedCount)))
        d.append(key: "skippedBecause", value: ColumnReport.counts(MigrationSkipReason.allCases.compactMap { r in skipped[r].map { (r.rawValue, $0) } }))
        d.append(key: "failed", value: .integer(PropertyListInteger(failedCount)))
        d.append(key: "failedBecause", value: ColumnReport.counts(MigrationFailureReason.allCases.compactMap { r in failedByReason[r].map { (r.rawValue, $0) } }))
        d.append(key: "failures", value: .array(failures.map { failure in
            .dictionary(PropertyListDictionary([
                (.string("primaryKey"), .integer(PropertyListInteger(failure.primaryKey))),
                (.string("reason"), .string(failure.reason.rawValue)), (.string("message"), .string(failure.message)),
            ]))
        }))
        d.append(key: "suggestedAdditions", value: .array(suggestedAdditions.map { .string($0) }))
        d.append(key: "judgedBy", value: judgement.judgedBy.map { .string($0) } ?? .null)
        if let change = modelChange {
            var c = PropertyListDictionary()
            c.append(key: "attribute", value: .string(change.attribute))
            c.append(key: "attributeType", value: .dictionary(PropertyListDictionary([(.string("from"), .string(change.oldType.contentsName)),
                                                                                      (.string("to"), .string(change.newType.contentsName))])))
            c.append(key: "removeValueTransformerName", value: change.removedTransformer.map { .string($0) } ?? .null)
            c.append(key: "removeCustomClassName", value: change.removedCustomClass.map { .string($0) } ?? .null)
            if let newTransformer = change.newTransformer {
                c.append(key: "valueTransformerName", value: .string(newTransformer))
            } else {
                c.append(key: "codegen", value: .string(codegenCommand))
            }
            d.append(key: "modelChange", value: .dictionary(c))
        } else {
            d.append(key: "modelChange", value: .null)
        }
        d.append(key: "batches", value: .integer(PropertyListInteger(batches)))
        d.append(key: "seconds", value: .real((elapsed * 1000).rounded() / 1000))
        return .dictionary(d)
    }
}

extension TransformerJudgement {
    /// A machine name for the basis: `noModel`, `notTransformable`, `secureDefaults`,
    /// `insecureTransformer`, `givenClasses`, `appCode`.
    public var basisCode: String {
        switch basis {
        case .noModel: "noModel"
        case .notTransformable: "notTransformable"
        case .secureDefaults: "secureDefaults"
        case .insecureTransformer: "insecureTransformer"
        case .givenClasses: "givenClasses"
        case .appCode: "appCode"
        }
    }
}
