import Foundation
import KeyedArchive
import PropertyList

/// Reads the typed model out of a keyed archive of `NSManagedObjectModel`, as Core Data writes
/// it into `Z_MODELCACHE` and momc into a compiled `.mom`, without any Core Data class.
///
/// The layout, learned from the corpus stores' caches:
/// - the root `NSManagedObjectModel` has `NSEntities` (entity name → `NSEntityDescription`) and
///   `NSVersionIdentifiers` (a set of strings);
/// - `NSEntities` is an `NSKnownKeysDictionary1`: its keys are `searchMapping.keys` and its
///   values `values`, two arrays in step (a plain NSDictionary is read too);
/// - an entity has `NSEntityName`, `NSClassNameForEntity`, `NSSuperentity`, `NSIsAbstract`
///   and `NSProperties` (name → property), where inherited properties appear again as copies;
/// - an `NSAttributeDescription` has `NSPropertyName`, `NSAttributeType` (100…2100),
///   `NSIsOptional` and `NSIsTransient` (present when true; the same flags are bits 1 and 3 of
///   `_P`), `NSDefaultValue`, `NSValueTransformerName` and `NSAttributeValueClassName`;
/// - an `NSRelationshipDescription` has `_NSDestinationEntityName`,
///   `_NSInverseRelationshipName`, `NSMaxCount` (1 for to-one), `NSIsOrdered`;
/// - `_NSPropertyDescriptionProxy` stands for a property through `NSUnderlyingProperty`.
///
/// Every reference is followed by UID and every value checked for its type, so a damaged or
/// hostile archive gives a `ModelError` naming the object, never a crash or a loop.
struct ArchivedModelReader {
    let archive: KeyedArchive
    let options: ModelReadOptions

    func read() throws(ModelError) -> ManagedObjectModel {
        guard let root = archive.rootObject else {
            throw ModelError(.notAModel, "the archive has no root object")
        }
        guard root.className == "NSManagedObjectModel" else {
            throw ModelError(.notAModel, "the archive's root is \(root.className), not NSManagedObjectModel", location: "object #\(root.uid)")
        }
        guard let entitiesValue = root[field: "NSEntities"], let entitiesObject = archive.object(entitiesValue) else {
            throw ModelError(.malformed, "NSManagedObjectModel has no NSEntities", location: "object #\(root.uid)")
        }
        let entries = try dictionaryEntries(entitiesObject)
        guard entries.count <= options.maximumEntities else {
            throw ModelError(.limitExceeded, "\(entries.count) entities, over the limit of \(options.maximumEntities) (the model entity limit)")
        }
        var entities: [EntityDescription] = []
        var names: Set<String> = []
        for (_, value) in entries {
            guard let object = archive.object(value), object.className == "NSEntityDescription" else {
                throw ModelError(.malformed, "an NSEntities value is not an NSEntityDescription", location: "object #\(entitiesObject.uid)")
            }
            let entity = try readEntity(object)
            guard names.insert(entity.name).inserted else {
                throw ModelError(.malformed, "two entities are named \(entity.name)", location: "object #\(object.uid)")
            }
            entities.append(entity)
        }
        // Subentities list their inherited properties again; the model keeps each where it is
        // declared, as the source model does.
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for index in entities.indices {
            var inherited: Set<String> = []
            var parent = entities[index].parentEntity
            var steps = 0
            while let name = parent, let ancestor = byName[name], steps < entities.count {
                inherited.formUnion(ancestor.attributes.map(\.name))
                inherited.formUnion(ancestor.relationships.map(\.name))
                parent = ancestor.parentEntity
                steps += 1
            }
            entities[index].attributes.removeAll { inherited.contains($0.name) }
            entities[index].relationships.removeAll { inherited.contains($0.name) }
        }
        var versions: [String] = []
        if let value = root[field: "NSVersionIdentifiers"], let object = archive.object(value) {
            for element in collectionElements(object) ?? [] {
                if let text = string(element) { versions.append(text) }
            }
        }
        return ManagedObjectModel(entities: entities, versionIdentifiers: versions.sorted())
    }

    func readEntity(_ object: ArchivedObject) throws(ModelError) -> EntityDescription {
        let place = "object #\(object.uid)"
        guard let name = object[field: "NSEntityName"].flatMap(string), !name.isEmpty else {
            throw ModelError(.malformed, "an entity has no NSEntityName", location: place)
        }
        var parent: String?
        if let value = object[field: "NSSuperentity"], value != .null {
            guard let superObject = archive.object(value), let superName = superObject[field: "NSEntityName"].flatMap(string) else {
                throw ModelError(.malformed, "entity \(name)'s NSSuperentity is not an entity", location: place)
            }
            parent = superName
        }
        var entity = EntityDescription(name: name, representedClassName: object[field: "NSClassNameForEntity"].flatMap(string),
                                       parentEntity: parent, isAbstract: object[field: "NSIsAbstract"].flatMap(bool) ?? false)
        guard let propertiesValue = object[field: "NSProperties"], propertiesValue != .null else { return entity }
        guard let propertiesObject = archive.object(propertiesValue) else {
            throw ModelError(.malformed, "entity \(name)'s NSProperties is not a dictionary", location: place)
        }
        let entries = try dictionaryEntries(propertiesObject)
        guard entries.count <= options.maximumPropertiesPerEntity else {
            throw ModelError(.limitExceeded, "entity \(name) has \(entries.count) properties, over the limit of \(options.maximumPropertiesPerEntity) (the per-entity property limit)", location: place)
        }
        var seen: Set<String> = []
        for (key, value) in entries {
            guard var property = archive.object(value) else {
                throw ModelError(.malformed, "entity \(name) has a property that is not an object", location: place)
            }
            // A proxy stands for the property it wraps (one step: a proxy of a proxy is damage).
            if property.className == "_NSPropertyDescriptionProxy" {
                guard let underlying = property[field: "NSUnderlyingProperty"].flatMap(archive.object) else {
                    throw ModelError(.malformed, "entity \(name) has a property proxy without its property", location: "object #\(property.uid)")
                }
                property = underlying
            }
            let propertyName = property[field: "NSPropertyName"].flatMap(string) ?? key.flatMap(string)
            guard let propertyName, !propertyName.isEmpty else {
                throw ModelError(.malformed, "entity \(name) has a property without a name", location: "object #\(property.uid)")
            }
            guard seen.insert(propertyName).inserted else { continue }
            let where_ = "entity \(name), property \(propertyName) (object #\(property.uid))"
            let flags = property[field: "_P"].flatMap(integer) ?? 0
            let optional = property[field: "NSIsOptional"].flatMap(bool) ?? (flags & 0b10 != 0)
            let transient = property[field: "NSIsTransient"].flatMap(bool) ?? (flags & 0b1000 != 0)
            switch property.className {
            case "NSAttributeDescription":
                guard let code = property[field: "NSAttributeType"].flatMap(integer) else {
                    throw ModelError(.malformed, "an attribute has no NSAttributeType", location: where_)
                }
                entity.attributes.append(AttributeDescription(
                    name: propertyName, attributeType: AttributeType(code: code), isOptional: optional, isTransient: transient,
                    defaultValue: property[field: "NSDefaultValue"].flatMap(defaultText).flatMap { AttributeDescription.canonicalDefault($0, type: AttributeType(code: code)) },
                    valueTransformerName: property[field: "NSValueTransformerName"].flatMap(string),
                    valueClassName: property[field: "NSAttributeValueClassName"].flatMap(string)))
            case "NSRelationshipDescription":
                var destination = property[field: "_NSDestinationEntityName"].flatMap(string)
                if destination == nil, let object = property[field: "NSDestinationEntity"].flatMap(archive.object) {
                    destination = object[field: "NSEntityName"].flatMap(string)
                }
                let maxCount = property[field: "NSMaxCount"].flatMap(integer) ?? 1
                entity.relationships.append(RelationshipDescription(
                    name: propertyName, destinationEntity: destination,
                    inverseName: property[field: "_NSInverseRelationshipName"].flatMap(string),
                    isToMany: maxCount != 1, isOrdered: property[field: "NSIsOrdered"].flatMap(bool) ?? (flags & 0x400 != 0),
                    isOptional: optional, isTransient: transient))
            default:
                // Fetched properties and anything newer have no column; they are not listed.
                continue
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        return entity
    }

    // MARK: Values

    /// A dictionary's entries: NSDictionary and its subclasses, or NSKnownKeysDictionary1's
    /// `searchMapping.keys` and `values`.
    func dictionaryEntries(_ object: ArchivedObject) throws(ModelError) -> [(key: ArchivedValue?, value: ArchivedValue)] {
        if case .dictionary(let keys, let values) = object.content {
            return zip(keys, values).map { ($0, $1) }
        }
        if let valuesObject = object[field: "values"].flatMap(archive.object), let values = collectionElements(valuesObject) {
            var keys: [ArchivedValue] = []
            if let mapping = object[field: "searchMapping"].flatMap(archive.object),
               let keysObject = mapping[field: "keys"].flatMap(archive.object) {
                keys = collectionElements(keysObject) ?? []
            }
            // The values array may carry empty slots; the keys name the live ones.
            return values.enumerated().compactMap { index, value in
                value == .null ? nil : (index < keys.count ? keys[index] : nil, value)
            }
        }
        throw ModelError(.malformed, "\(object.className) is not a dictionary Archivist reads", location: "object #\(object.uid)")
    }

    func collectionElements(_ object: ArchivedObject) -> [ArchivedValue]? {
        switch object.content {
        case .array(let elements), .set(let elements), .orderedSet(let elements): elements
        default: nil
        }
    }

    func string(_ value: ArchivedValue) -> String? {
        switch value {
        case .inline(.string(let text)): return text
        case .object:
            if case .string(let text)? = archive.object(value)?.content { return text }
            return nil
        default: return nil
        }
    }

    func plistScalar(_ value: ArchivedValue) -> PropertyListValue? {
        switch value {
        case .inline(let scalar): return scalar
        case .object:
            if case .number(let scalar)? = archive.object(value)?.content { return scalar }
            return nil
        default: return nil
        }
    }

    func integer(_ value: ArchivedValue) -> Int? {
        switch plistScalar(value) {
        case .integer(let n)?: n.int64Value.flatMap { Int(exactly: $0) }
        case .bool(let b)?: b ? 1 : 0
        default: nil
        }
    }

    func bool(_ value: ArchivedValue) -> Bool? {
        switch plistScalar(value) {
        case .bool(let b)?: b
        case .integer(let n)?: n.int64Value.map { $0 != 0 }
        default: nil
        }
    }

    /// A default value in the words of `defaultValueString`: numbers and text as they are,
    /// booleans as YES/NO, dates as seconds since 2001.
    func defaultText(_ value: ArchivedValue) -> String? {
        if value == .null { return nil }
        if let text = string(value) { return text }
        switch plistScalar(value) {
        case .bool(let b)?: return b ? "YES" : "NO"
        case .integer(let n)?: return n.description
        case .real(let r)?: return Self.shortest(r)
        default: break
        }
        guard let object = archive.object(value) else { return nil }
        switch object.content {
        case .date(let date): return Self.shortest(date.timeIntervalSinceReferenceDate)
        case .decimalNumber(let text): return text
        case .uuid(let uuid): return uuid.uuidString
        default: return nil
        }
    }

    /// `1` rather than `1.0`, as `defaultValueString` writes whole numbers.
    static func shortest(_ r: Double) -> String {
        if r.rounded() == r, abs(r) < 1e15 { return String(Int64(r)) }
        return String(r)
    }
}
