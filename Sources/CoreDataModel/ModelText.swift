import Foundation
import PropertyList

/// The text forms of `model` and its audit.
enum ModelText {
    static func render(_ loaded: LoadedModel, file: String, colors: ReportPalette) -> String {
        let model = loaded.model
        var out = "\((file as NSString).lastPathComponent): "
        switch loaded.source {
        case .modelCache: out += "model from the store's Z_MODELCACHE"
        case .compiledModel(_, let version), .sourceModel(_, let version):
            out += loaded.source.description.components(separatedBy: ",").first ?? "model"
            if let version {
                out += ", version \"\(version)\""
                switch loaded.versionMatch {
                case .matchesStore?: out += " (its entity hashes equal the store's)"
                case .current?: out += " (the current version)"
                case .onlyOrLast?: out += loaded.versions.count > 1 ? " (no version is marked current: the last by name)" : ""
                case nil: break
                }
            }
        }
        out += ", \(model.entities.count) \(model.entities.count == 1 ? "entity" : "entities")\n"
        for entity in model.entities {
            var heading = "\n\(entity.name)"
            var notes: [String] = []
            if let className = entity.representedClassName, className != entity.name { notes.append("class \(className)") }
            if let parent = entity.parentEntity { notes.append("parent \(parent)") }
            if entity.isAbstract { notes.append("abstract") }
            notes.append("table \(entity.table)")
            heading += " (" + notes.joined(separator: ", ") + ")"
            out += heading + "\n"
            if !entity.attributes.isEmpty {
                let width = min(32, entity.attributes.map(\.name.count).max() ?? 0)
                let typeWidth = entity.attributes.map(\.attributeType.xcodeName.count).max() ?? 0
                for attribute in entity.attributes {
                    var line = "  " + pad(attribute.name, width) + "  " + pad(attribute.attributeType.xcodeName, typeWidth)
                    var details: [String] = []
                    if !attribute.isOptional { details.append("required") }
                    if attribute.isTransient { details.append("transient") }
                    if let value = attribute.defaultValue { details.append("default \(value)") }
                    if attribute.attributeType == .transformable {
                        details.append("transformer \(attribute.valueTransformerName ?? "none")")
                    } else if let name = attribute.valueTransformerName {
                        details.append("transformer \(name)")
                    }
                    if let custom = attribute.customClassName { details.append("custom class \(custom)") }
                    details.append(attribute.column.map { "column \($0)" } ?? "no column")
                    line += "  " + details.joined(separator: ", ")
                    out += line + "\n"
                }
            }
            for relationship in entity.relationships {
                var details = ["→ \(relationship.destinationEntity ?? "?")", relationship.isToMany ? "to-many" : "to-one"]
                if relationship.isOrdered { details.append("ordered") }
                if let inverse = relationship.inverseName { details.append("inverse \(inverse)") }
                if relationship.isTransient { details.append("transient") }
                if let column = relationship.column { details.append("column \(column)") }
                out += "  " + colors.dim("relationship \(relationship.name): " + details.joined(separator: ", ")) + "\n"
            }
        }
        return out
    }

    static func render(_ audit: ModelAudit, rowsRead: Bool, colors: ReportPalette) -> String {
        var out = "\n"
        if audit.findings.isEmpty {
            out += colors.good("audit: no Transformable attribute that Core Data warns about or refuses") + "\n"
        } else {
            let count = audit.findings.count
            out += colors.bad("audit: \(count) Transformable \(count == 1 ? "attribute" : "attributes") that Core Data warns about or refuses") + "\n"
        }
        for finding in audit.findings {
            let column = finding.attribute.column.map { " (\($0))" } ?? ""
            out += "\n  \(finding.entity).\(finding.attribute.name)\(column): \(finding.problem)\n"
            out += "    rows: \(rows(finding.rows, rowsRead: rowsRead))\n"
            if let migration = finding.fix.migrationCommand {
                out += "    first: \(migration)  (the typedstreams become keyed archives of the same objects)\n"
            }
            if finding.fix.className == nil {
                out += "    fix: set its Transformer to NSSecureUnarchiveFromDataTransformer; its default classes accept every class the rows hold\n"
            } else {
                let added = finding.fix.addedClasses.isEmpty ? "" : " and \(finding.fix.addedClasses.joined(separator: ", "))"
                out += "    fix: an NSSecureUnarchiveFromDataTransformer subclass allowing its defaults\(added)\n"
                out += finding.fix.swiftSource.split(separator: "\n", omittingEmptySubsequences: false).map { "      \($0)\n" }.joined()
            }
        }
        if !audit.judgedByApp.isEmpty {
            out += "\n  judged by the app's own transformers, not audited:\n"
            for judged in audit.judgedByApp {
                out += "    \(judged.entity).\(judged.attribute.name): \(judged.transformer); rows: \(rows(judged.rows, rowsRead: rowsRead))\n"
                out += "      to judge it here: \(judged.flag)\n"
            }
        }
        return out
    }

    static func rows(_ rows: AttributeRows?, rowsRead: Bool) -> String {
        guard let rows else { return rowsRead ? "no column read" : "not read (give --store STORE to read them)" }
        guard rows.values > 0 else { return "none stored" }
        var text = "\(CountText.number(rows.values)) \(rows.values == 1 ? "value" : "values")"
        if rows.archives > 0 { text += ", \(CountText.number(rows.archives)) archives holding " + CountText.list(rows.classCounts) }
        if rows.typedStreams > 0 {
            text += ", \(CountText.number(rows.typedStreams)) NSArchiver typedstreams"
            if rows.archives == 0 { text += " holding " + CountText.list(rows.classCounts) }
        }
        return text
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
