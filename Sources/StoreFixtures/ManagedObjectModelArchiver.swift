import CoreDataModel
import Foundation
import KeyedArchive
import PropertyList

/// Archives a `ManagedObjectModel` as Core Data archives `NSManagedObjectModel`, for fixtures:
/// the `Z_MODELCACHE` of a fixture store and the `.mom` files of a fixture `.momd`.
///
/// There is no Xcode or Core Data here, so the layout is the one the corpus stores' caches
/// show (Apple's, iOS 15), rebuilt field by field with `KeyedArchiveBuilder`:
/// - `NSManagedObjectModel`: `NSEntities`, `NSFetchRequestTemplates` (nil), `NSVersionIdentifiers`
///   (an NSMutableSet of strings);
/// - `NSEntities` is an `NSKnownKeysDictionary1`: `values` (NSArray of entities),
///   `searchMapping` (`NSKnownKeysMappingStrategy1` with `length`, `keys`, `version`),
///   `emptyToken`, `version`;
/// - each `NSEntityDescription` lists every property in `NSProperties`, inherited ones as
///   copies whose `NSEntity` is the subentity, and its subentities in `NSSubentities`;
/// - attributes and relationships carry `_P` (bit 1 optional, bit 3 transient), `NSIsOptional`
///   and `NSIsTransient` when true, and the keys `ArchivedModelReader` documents.
public struct ManagedObjectModelArchiver: Sendable {
    public init() {}

    /// The archive, as `KeyedArchiveWriter` writes it.
    public func archive(_ model: ManagedObjectModel) -> KeyedArchive {
        var b = KeyedArchiveBuilder()
        let root = b.reserve()
        let entityRefs = Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, b.reserve()) })
        var fields: [String: [ArchivedField]] = [:]
        for entity in model.entities {
            guard let ref = entityRefs[entity.name] else { continue }
            let nameRef = b.string(entity.name)
            // Every property the entity has, its ancestors' first, as copies owned by it.
            var properties: [(String, ArchivedValue)] = []
            for attribute in model.allAttributes(of: entity.name).sorted(by: { $0.name < $1.name }) {
                properties.append((attribute.name, self.attribute(attribute, entity: ref, builder: &b)))
            }
            let relationships = model.lineage(of: entity.name).reversed().flatMap(\.relationships).sorted { $0.name < $1.name }
            for relationship in relationships {
                properties.append((relationship.name, self.relationship(relationship, entity: ref, entities: entityRefs, builder: &b)))
            }
            let propertyDictionary = b.dictionary(keys: properties.map { b.string($0.0) }, values: properties.map(\.1), mutable: true)
            let subentities = model.subentities(of: entity.name)
            let subentityDictionary = b.dictionary(keys: subentities.map { b.string($0.name) }, values: subentities.map { entityRefs[$0.name] ?? .null },
                                                   mutable: true)
            var entityFields = [
                ArchivedField(key: "NSEntityName", value: nameRef),
                ArchivedField(key: "NSClassNameForEntity", value: entity.representedClassName.map { b.string($0) } ?? .null),
                ArchivedField(key: "NSUserInfo", value: b.dictionary(keys: [], values: [])),
                ArchivedField(key: "NSSubentities", value: subentityDictionary),
                ArchivedField(key: "NSVersionHashModifier", value: .null),
                ArchivedField(key: "NSProperties", value: propertyDictionary),
                ArchivedField(key: "NSRenamingIdentifier", value: nameRef),
                ArchivedField(key: "NSManagedObjectModel", value: root),
                ArchivedField(key: "NSSuperentity", value: entity.parentEntity.flatMap { entityRefs[$0] } ?? .null),
            ]
            if entity.isAbstract { entityFields.append(ArchivedField(key: "NSIsAbstract", value: b.number(.bool(true)))) }
            fields[entity.name] = entityFields
        }
        for entity in model.entities {
            guard let ref = entityRefs[entity.name] else { continue }
            b.define(ref, className: "NSEntityDescription", fields: fields[entity.name] ?? [])
        }
        let names = model.entities.map { b.string($0.name) }
        let keys = b.array(names)
        let mapping = b.object("NSKnownKeysMappingStrategy1", chain: ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject"], fields: [
            ArchivedField(key: "length", value: .inline(.integer(PropertyListInteger(names.count)))),
            ArchivedField(key: "keys", value: keys),
            ArchivedField(key: "version", value: .inline(.integer(PropertyListInteger(1)))),
        ])
        let values = b.array(model.entities.map { entityRefs[$0.name] ?? .null })
        let entities = b.object("NSKnownKeysDictionary1",
                                chain: ["NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject"], fields: [
            ArchivedField(key: "values", value: values),
            ArchivedField(key: "searchMapping", value: mapping),
            ArchivedField(key: "emptyToken", value: b.string("__empty_slot_token_4c24_98dc_ac1e_b773__")),
            ArchivedField(key: "version", value: .inline(.integer(PropertyListInteger(1)))),
        ])
        let identifiers = b.object("NSMutableSet", chain: ["NSMutableSet", "NSSet", "NSObject"], fields: [
            ArchivedField(key: "NS.objects", value: .array(model.versionIdentifiers.map { b.string($0) })),
        ])
        b.define(root, className: "NSManagedObjectModel", fields: [
            ArchivedField(key: "NSEntities", value: entities),
            ArchivedField(key: "NSFetchRequestTemplates", value: .null),
            ArchivedField(key: "NSVersionIdentifiers", value: identifiers),
        ])
        return b.archive(root: root)
    }

    /// The archive's bytes: a binary keyed archive, as a compiled `.mom` file holds it.
    public func write(_ model: ManagedObjectModel) throws(PropertyListError) -> Data {
        try KeyedArchiveWriter().write(archive(model))
    }

    /// What a store's `Z_MODELCACHE.Z_CONTENT` holds: the archive, raw-deflated.
    public func modelCache(_ model: ManagedObjectModel) throws -> Data {
        try RawDeflateWriter.deflate(try write(model))
    }

    /// `_P`: bit 0 always set in Apple's archives, bit 1 optional, bit 3 transient, and the
    /// bits 4 to 7 every corpus property has.
    static func flags(optional: Bool, transient: Bool) -> Int {
        0b1111_0001 | (optional ? 0b10 : 0) | (transient ? 0b1000 : 0)
    }

    func attribute(_ attribute: AttributeDescription, entity: ArchivedValue, builder b: inout KeyedArchiveBuilder) -> ArchivedValue {
        let name = b.string(attribute.name)
        var fields = [
            ArchivedField(key: "_P", value: .inline(.integer(PropertyListInteger(Self.flags(optional: attribute.isOptional, transient: attribute.isTransient))))),
            ArchivedField(key: "NSAttributeValueClassName", value: attribute.valueClassName.map { b.string($0) } ?? .null),
            ArchivedField(key: "NSAttributeType", value: .inline(.integer(PropertyListInteger(attribute.attributeType.code)))),
        ]
        if attribute.isOptional { fields.append(ArchivedField(key: "NSIsOptional", value: .inline(.bool(true)))) }
        if attribute.isTransient { fields.append(ArchivedField(key: "NSIsTransient", value: .inline(.bool(true)))) }
        fields += [
            ArchivedField(key: "NSEntity", value: entity),
            ArchivedField(key: "NSDefaultValue", value: attribute.defaultValue.map { defaultValue($0, type: attribute.attributeType, builder: &b) } ?? .null),
            ArchivedField(key: "NSPropertyName", value: name),
            ArchivedField(key: "NSValueTransformerName", value: attribute.valueTransformerName.map { b.string($0) } ?? .null),
            ArchivedField(key: "NSFlagsKey", value: .inline(.integer(PropertyListInteger(0)))),
            ArchivedField(key: "NSRenamingIdentifier", value: name),
        ]
        return b.object("NSAttributeDescription", chain: ["NSAttributeDescription", "NSPropertyDescription", "NSObject"], fields: fields)
    }

    func defaultValue(_ text: String, type: AttributeType, builder b: inout KeyedArchiveBuilder) -> ArchivedValue {
        switch type {
        case .integer16, .integer32, .integer64: Int64(text).map { b.number(.integer(PropertyListInteger($0))) } ?? b.string(text)
        case .double, .float: Double(text).map { b.number(.real($0)) } ?? b.string(text)
        case .boolean: b.number(.bool(text == "YES"))
        case .date: Double(text).map { b.date(Date(timeIntervalSinceReferenceDate: $0)) } ?? b.string(text)
        default: b.string(text)
        }
    }

    func relationship(_ relationship: RelationshipDescription, entity: ArchivedValue, entities: [String: ArchivedValue],
                      builder b: inout KeyedArchiveBuilder) -> ArchivedValue {
        let name = b.string(relationship.name)
        var fields = [
            ArchivedField(key: "_P", value: .inline(.integer(PropertyListInteger(Self.flags(optional: relationship.isOptional, transient: relationship.isTransient)
                                                                                | (relationship.isOrdered ? 0x400 : 0))))),
            ArchivedField(key: "NSDestinationEntity", value: relationship.destinationEntity.flatMap { entities[$0] } ?? .null),
            ArchivedField(key: "NSEntity", value: entity),
            ArchivedField(key: "NSDeleteRule", value: .inline(.integer(PropertyListInteger(1)))),
            ArchivedField(key: "NSInverseRelationship", value: .null),
            ArchivedField(key: "_NSInverseRelationshipName", value: relationship.inverseName.map { b.string($0) } ?? .null),
        ]
        if relationship.isOptional { fields.append(ArchivedField(key: "NSIsOptional", value: .inline(.bool(true)))) }
        if relationship.isTransient { fields.append(ArchivedField(key: "NSIsTransient", value: .inline(.bool(true)))) }
        if relationship.isOrdered { fields.append(ArchivedField(key: "NSIsOrdered", value: .inline(.bool(true)))) }
        fields += [
            ArchivedField(key: "NSMaxCount", value: .inline(.integer(PropertyListInteger(relationship.isToMany ? 0 : 1)))),
            ArchivedField(key: "NSPropertyName", value: name),
            ArchivedField(key: "NSRenamingIdentifier", value: name),
            ArchivedField(key: "NSMinCount", value: .inline(.integer(PropertyListInteger(0)))),
            ArchivedField(key: "_NSDestinationEntityName", value: relationship.destinationEntity.map { b.string($0) } ?? .null),
        ]
        return b.object("NSRelationshipDescription", chain: ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"], fields: fields)
    }
}
