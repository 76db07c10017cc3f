import Foundation

/// An app's Core Data model: its entities, their attributes and relationships, and where a
/// SQLite store keeps each of them.
///
/// However it was read (a store's `Z_MODELCACHE`, a compiled `.mom`, a source `.xcdatamodel`),
/// the model is the same value: entities sorted by name as Core Data sorts them, each with the
/// properties it declares itself, and the tables and columns Core Data's SQLite store gives
/// them (`EntityDescription.table`, `AttributeDescription.column`).
public struct ManagedObjectModel: Sendable, Hashable {
    /// The entities, sorted by name without regard to case, as Core Data numbers them.
    public private(set) var entities: [EntityDescription]
    /// `NSVersionIdentifiers`: the model's version identifiers (often one empty string).
    public var versionIdentifiers: [String]
    /// Entity names in `Z_ENT` order: the store's `Z_PRIMARYKEY` when given, otherwise the
    /// order Core Data assigns (roots by name, then each tree level by level, by name).
    public private(set) var entityOrder: [String]
    /// The entity tables, in the order of their root entities.
    public private(set) var tables: [EntityTableLayout]
    /// The many-to-many relationships' tables.
    public private(set) var joinTables: [JoinTableLayout]

    /// A model of these entities, laid out as a SQLite store would be.
    ///
    /// - Parameters:
    ///   - entities: the model's entities, in any order.
    ///   - versionIdentifiers: `NSVersionIdentifiers`, the model's version identifiers.
    ///   - entityOrder: `Z_PRIMARYKEY`'s names by `Z_ENT`, when a store is at hand;
    ///     entities it does not list follow in Core Data's own order.
    public init(entities: [EntityDescription], versionIdentifiers: [String] = [], entityOrder: [String]? = nil) {
        self.entities = entities.sorted { Self.precedes($0.name, $1.name) }
        self.versionIdentifiers = versionIdentifiers
        self.entityOrder = []
        self.tables = []
        self.joinTables = []
        layOut(entityOrder: entityOrder)
    }

    /// Core Data's order of names: without regard to case, then exactly.
    static func precedes(_ a: String, _ b: String) -> Bool {
        switch a.caseInsensitiveCompare(b) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: a < b
        }
    }

    /// The same model laid out with a store's `Z_ENT` order.
    public func laidOut(entityOrder: [String]) -> ManagedObjectModel {
        var copy = self
        copy.layOut(entityOrder: entityOrder)
        return copy
    }

    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name } ?? entities.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The entity's `Z_ENT` in this layout (from 1).
    public func entityID(of name: String) -> Int? {
        entityOrder.firstIndex(of: name).map { $0 + 1 }
    }

    /// The entity and its ancestors, nearest first. Stops at a loop or a missing parent.
    public func lineage(of name: String) -> [EntityDescription] {
        var out: [EntityDescription] = []
        var next: String? = name
        while let current = next, let entity = entity(named: current), !out.contains(where: { $0.name == entity.name }) {
            out.append(entity)
            next = entity.parentEntity
        }
        return out
    }

    /// The attribute `name` of `entity`, declared by it or inherited, with the entity that
    /// declares it.
    public func attribute(_ name: String, of entity: String) -> (declaredBy: EntityDescription, attribute: AttributeDescription)? {
        let lineage = lineage(of: entity)
        for candidate in lineage {
            if let found = candidate.attributes.first(where: { $0.name == name }) { return (candidate, found) }
        }
        for candidate in lineage {
            if let found = candidate.attribute(named: name) { return (candidate, found) }
        }
        return nil
    }

    /// Every attribute of an entity, inherited ones first.
    public func allAttributes(of entity: String) -> [AttributeDescription] {
        lineage(of: entity).reversed().flatMap(\.attributes)
    }

    /// The entities directly below `name`.
    public func subentities(of name: String) -> [EntityDescription] {
        entities.filter { $0.parentEntity == name }
    }

    /// The table layout of `name` (a table name, any case).
    public func table(named name: String) -> EntityTableLayout? {
        tables.first { $0.name == name } ?? tables.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The entity and attribute a column of a table holds, if the column is an attribute's.
    public func attribute(inTable table: String, column: String) -> (entity: EntityDescription, attribute: AttributeDescription)? {
        guard case .attribute(let entityName, let name)? = self.table(named: table)?.role(ofColumn: column),
              let entity = entity(named: entityName), let attribute = entity.attributes.first(where: { $0.name == name }) else { return nil }
        return (entity, attribute)
    }

    /// Every stored Transformable attribute, entity by entity.
    public var transformableAttributes: [(entity: EntityDescription, attribute: AttributeDescription)] {
        entities.flatMap { entity in
            entity.attributes.filter { $0.attributeType == .transformable && $0.isStored }.map { (entity, $0) }
        }
    }

    // MARK: Layout

    /// Core Data's own `Z_ENT` order: root entities by name, each followed by its subentities
    /// level by level, by name (as every corpus store's `Z_PRIMARYKEY` shows).
    static func coreDataOrder(_ entities: [EntityDescription]) -> [String] {
        let names = Set(entities.map(\.name))
        var children: [String: [String]] = [:]
        var roots: [String] = []
        for entity in entities {
            if let parent = entity.parentEntity, names.contains(parent), parent != entity.name {
                children[parent, default: []].append(entity.name)
            } else {
                roots.append(entity.name)
            }
        }
        var order: [String] = []
        var placed: Set<String> = []
        for root in roots.sorted(by: precedes) {
            var queue = [root]
            var index = 0
            while index < queue.count {
                let name = queue[index]
                index += 1
                guard placed.insert(name).inserted else { continue }
                order.append(name)
                queue += (children[name] ?? []).sorted(by: precedes)
            }
        }
        // Entities caught in a parent loop: after the rest, by name.
        order += entities.map(\.name).filter { !placed.contains($0) }
        return order
    }

    /// Assigns tables and columns the way Core Data's SQLite store does: each entity's rows go
    /// to its root's table; the entities of a table take columns in `Z_ENT` order, each
    /// entity's stored attributes and to-one relationships by name, as `Z` and the name in
    /// capitals, followed by 1, 2… when an earlier entity of the table took that name.
    mutating func layOut(entityOrder given: [String]?) {
        let known = Set(entities.map(\.name))
        var order = (given ?? []).filter { known.contains($0) }
        var seen = Set(order)
        for name in Self.coreDataOrder(entities) where seen.insert(name).inserted { order.append(name) }
        entityOrder = order
        let index = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        func root(_ name: String) -> String { lineage(of: name).last?.name ?? name }

        var tableOrder: [String] = []
        var tableEntities: [String: [String]] = [:]
        for name in order {
            let table = "Z" + root(name).uppercased()
            if tableEntities[table] == nil { tableOrder.append(table) }
            tableEntities[table, default: []].append(name)
        }
        var used: [String: Set<String>] = [:]
        var columns: [String: [(name: String, role: StoreColumnRole)]] = [:]
        func take(_ base: String, in table: String) -> String {
            var taken = used[table, default: ["Z_PK", "Z_ENT", "Z_OPT"]]
            var name = base
            var suffix = 1
            while taken.contains(name) {
                name = base + String(suffix)
                suffix += 1
            }
            taken.insert(name)
            used[table] = taken
            return name
        }
        for table in tableOrder {
            for entityName in tableEntities[table] ?? [] {
                guard let position = index[entityName] else { continue }
                entities[position].table = table
                let inherited = Set(lineage(of: entityName).dropFirst().flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
                var properties: [(name: String, isAttribute: Bool, offset: Int)] = []
                for (offset, attribute) in entities[position].attributes.enumerated() where !inherited.contains(attribute.name) {
                    if attribute.isTransient { entities[position].attributes[offset].column = nil } else { properties.append((attribute.name, true, offset)) }
                }
                for (offset, relationship) in entities[position].relationships.enumerated() where !inherited.contains(relationship.name) {
                    if relationship.isTransient || relationship.isToMany {
                        entities[position].relationships[offset].column = nil
                    } else {
                        properties.append((relationship.name, false, offset))
                    }
                }
                properties.sort { $0.name < $1.name }
                for property in properties {
                    let column = take("Z" + property.name.uppercased(), in: table)
                    if property.isAttribute {
                        entities[position].attributes[property.offset].column = column
                        columns[table, default: []].append((column, .attribute(entity: entityName, name: property.name)))
                    } else {
                        entities[position].relationships[property.offset].column = column
                        columns[table, default: []].append((column, .toOne(entity: entityName, name: property.name)))
                    }
                }
            }
        }
        // Inherited properties share their ancestor's column.
        for position in entities.indices {
            let lineage = lineage(of: entities[position].name).dropFirst()
            for offset in entities[position].attributes.indices {
                let name = entities[position].attributes[offset].name
                if let ancestor = lineage.first(where: { $0.attributes.contains { $0.name == name } }),
                   let column = ancestor.attributes.first(where: { $0.name == name })?.column {
                    entities[position].attributes[offset].column = column
                }
            }
        }
        // Relationship bookkeeping columns and join tables.
        var joins: [JoinTableLayout] = []
        var joined: Set<String> = []
        for entityName in order {
            guard let entity = entity(named: entityName), let id = entityID(of: entityName) else { continue }
            let inherited = Set(lineage(of: entityName).dropFirst().flatMap { $0.relationships.map(\.name) })
            for relationship in entity.relationships where !relationship.isTransient && !inherited.contains(relationship.name) {
                guard let destinationName = relationship.destinationEntity, let destination = self.entity(named: destinationName) else { continue }
                let destinationTable = destination.table
                let inverse = relationship.inverseName.flatMap { name in lineage(of: destinationName).lazy.compactMap { $0.relationship(named: name) }.first }
                if !relationship.isToMany {
                    // The destination's entity, when it may be one of several.
                    let destinationRoot = root(destinationName)
                    if !subentities(of: destinationName).isEmpty, let column = relationship.column, let rootID = entityID(of: destinationRoot) {
                        columns[entity.table, default: []].append(("Z\(rootID)_" + column.dropFirst(), .toOneEntity(entity: entityName, name: relationship.name)))
                    }
                    continue
                }
                if let inverse, inverse.isToMany {
                    // Many-to-many: one join table, named after the side with the lower Z_ENT.
                    guard let inverseOwner = lineage(of: destinationName).first(where: { $0.relationship(named: inverse.name) != nil }),
                          let inverseID = entityID(of: inverseOwner.name) else { continue }
                    let key = [entityName + "." + relationship.name, inverseOwner.name + "." + inverse.name].sorted().joined(separator: "|")
                    guard joined.insert(key).inserted else { continue }
                    let first = (id, relationship.name) <= (inverseID, inverse.name)
                    let (ownerID, owner, name) = first ? (id, entityName, relationship.name) : (inverseID, inverseOwner.name, inverse.name)
                    let other = first ? (inverseOwner.name, inverse.name) : (entityName, relationship.name)
                    joins.append(JoinTableLayout(name: "Z_\(ownerID)" + name.uppercased(), relationship: (owner, name), inverse: other))
                    continue
                }
                if inverse == nil {
                    // To-many with no inverse: the destination rows keep the source's key.
                    let base = "\(id)" + relationship.name.uppercased()
                    columns[destinationTable, default: []].append(("Z" + base, .toManyKey(entity: entityName, name: relationship.name)))
                    if relationship.isOrdered {
                        columns[destinationTable, default: []].append(("Z_FOK_" + base, .orderKey(entity: entityName, name: relationship.name)))
                    }
                } else if relationship.isOrdered, let inverse {
                    columns[destinationTable, default: []].append(("Z_FOK_" + inverse.name.uppercased(), .orderKey(entity: entityName, name: relationship.name)))
                }
            }
        }
        tables = tableOrder.map { EntityTableLayout(name: $0, entities: tableEntities[$0] ?? [], columns: columns[$0] ?? []) }
        joinTables = joins
    }
}
