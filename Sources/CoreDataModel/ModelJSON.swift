import PropertyList

/// The machine-readable model, in Xcode's own vocabulary (the keys and type names of an
/// `.xcdatamodel/contents` file), with `null` where the model has nothing.
extension ManagedObjectModel {
    public var jsonValue: PropertyListValue {
        func text(_ value: String?) -> PropertyListValue { value.map { .string($0) } ?? .null }
        var root = PropertyListDictionary()
        root.append(key: "entities", value: .array(entities.map { entity in
            var e = PropertyListDictionary()
            e.append(key: "name", value: .string(entity.name))
            e.append(key: "representedClassName", value: text(entity.representedClassName))
            e.append(key: "parentEntity", value: text(entity.parentEntity))
            e.append(key: "isAbstract", value: .bool(entity.isAbstract))
            e.append(key: "table", value: .string(entity.table))
            e.append(key: "attributes", value: .array(entity.attributes.map { attribute in
                var a = PropertyListDictionary()
                a.append(key: "name", value: .string(attribute.name))
                a.append(key: "attributeType", value: .string(attribute.attributeType.contentsName))
                a.append(key: "optional", value: .bool(attribute.isOptional))
                a.append(key: "transient", value: .bool(attribute.isTransient))
                a.append(key: "defaultValueString", value: text(attribute.defaultValue))
                a.append(key: "valueTransformerName", value: text(attribute.valueTransformerName))
                a.append(key: "customClassName", value: text(attribute.customClassName))
                a.append(key: "column", value: text(attribute.column))
                return .dictionary(a)
            }))
            e.append(key: "relationships", value: .array(entity.relationships.map { relationship in
                var r = PropertyListDictionary()
                r.append(key: "name", value: .string(relationship.name))
                r.append(key: "destinationEntity", value: text(relationship.destinationEntity))
                r.append(key: "inverseName", value: text(relationship.inverseName))
                r.append(key: "toMany", value: .bool(relationship.isToMany))
                r.append(key: "ordered", value: .bool(relationship.isOrdered))
                r.append(key: "optional", value: .bool(relationship.isOptional))
                r.append(key: "transient", value: .bool(relationship.isTransient))
                r.append(key: "column", value: text(relationship.column))
                return .dictionary(r)
            }))
            return .dictionary(e)
        }))
        return .dictionary(root)
    }
}

extension ModelAudit {
    public var jsonValue: PropertyListValue {
        func rowsValue(_ rows: AttributeRows?) -> PropertyListValue {
            guard let rows else { return .null }
            var r = PropertyListDictionary()
            r.append(key: "values", value: .integer(PropertyListInteger(rows.values)))
            r.append(key: "archives", value: .integer(PropertyListInteger(rows.archives)))
            if rows.typedStreams > 0 { r.append(key: "typedStreams", value: .integer(PropertyListInteger(rows.typedStreams))) }
            r.append(key: "classes", value: .dictionary(PropertyListDictionary(rows.classCounts.map { (.string($0.name), .integer(PropertyListInteger($0.count))) })))
            r.append(key: "refused", value: .integer(PropertyListInteger(rows.refused)))
            return .dictionary(r)
        }
        var root = PropertyListDictionary()
        root.append(key: "findings", value: .array(findings.map { finding in
            var f = PropertyListDictionary()
            f.append(key: "attribute", value: .string("\(finding.entity).\(finding.attribute.name)"))
            f.append(key: "column", value: finding.attribute.column.map { .string($0) } ?? .null)
            f.append(key: "valueTransformerName", value: finding.attribute.valueTransformerName.map { .string($0) } ?? .null)
            f.append(key: "customClassName", value: finding.attribute.customClassName.map { .string($0) } ?? .null)
            f.append(key: "problem", value: .string(finding.problem.code))
            f.append(key: "message", value: .string(finding.problem.description))
            f.append(key: "rows", value: rowsValue(finding.rows))
            var fix = PropertyListDictionary()
            fix.append(key: "valueTransformerName", value: .string(finding.fix.transformerName))
            fix.append(key: "className", value: finding.fix.className.map { .string($0) } ?? .null)
            fix.append(key: "addedClasses", value: .array(finding.fix.addedClasses.map { .string($0) }))
            fix.append(key: "swift", value: .string(finding.fix.swiftSource))
            if let migration = finding.fix.migrationCommand { fix.append(key: "migrateFirst", value: .string(migration)) }
            f.append(key: "fix", value: .dictionary(fix))
            return .dictionary(f)
        }))
        root.append(key: "judgedByApp", value: .array(judgedByApp.map { judged in
            var j = PropertyListDictionary()
            j.append(key: "attribute", value: .string("\(judged.entity).\(judged.attribute.name)"))
            j.append(key: "valueTransformerName", value: .string(judged.transformer))
            j.append(key: "rows", value: rowsValue(judged.rows))
            j.append(key: "judgeWith", value: .string(judged.flag))
            return .dictionary(j)
        }))
        return .dictionary(root)
    }
}

extension LoadedModel {
    /// Where the model came from, for reports.
    public var summaryJSON: PropertyListValue {
        var d = PropertyListDictionary()
        let kind = switch source {
        case .modelCache: "modelCache"
        case .compiledModel: "compiledModel"
        case .sourceModel: "sourceModel"
        }
        d.append(key: "source", value: .string(kind))
        d.append(key: "path", value: .string(source.path))
        d.append(key: "version", value: source.version.map { .string($0) } ?? .null)
        d.append(key: "versionMatch", value: versionMatch.map { .string($0.rawValue) } ?? .null)
        d.append(key: "entities", value: .integer(PropertyListInteger(model.entities.count)))
        return .dictionary(d)
    }
}
