import Foundation
import GRDB
import PropertyList

/// The layout of a store: its Core Data entities and metadata when it is a Core Data store, and
/// the tables whose values are worth scanning.
public struct StoreSchema: Sendable, Hashable {
    /// Whether the file has `Z_PRIMARYKEY` and `Z_METADATA`, as every Core Data SQLite store does.
    public var isCoreData: Bool
    public var metadata: StoreMetadata?
    /// The rows of `Z_PRIMARYKEY`, by `Z_ENT`.
    public var entities: [CoreDataEntity]
    /// Entity tables (Core Data) or every user table (other files), by name.
    public var tables: [StoreTable]
    /// Core Data's own bookkeeping tables, listed but not scanned.
    public var internalTables: [String]

    public init(isCoreData: Bool, metadata: StoreMetadata?, entities: [CoreDataEntity], tables: [StoreTable], internalTables: [String]) {
        self.isCoreData = isCoreData
        self.metadata = metadata
        self.entities = entities
        self.tables = tables
        self.internalTables = internalTables
    }

    /// Tables Core Data keeps for itself: no attribute values live there.
    static let coreDataInternalTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    /// Reads the schema of an open store.
    static func read(_ db: Database, path: String) throws(StoreError) -> StoreSchema {
        let names: [String] = try StoreConnection.sqlite(path) {
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        }
        let isCoreData = names.contains("Z_PRIMARYKEY") && names.contains("Z_METADATA")
        guard isCoreData else {
            var tables: [StoreTable] = []
            for name in names { tables.append(try readTable(db, name: name, path: path, coreData: false)) }
            return StoreSchema(isCoreData: false, metadata: nil, entities: [], tables: tables, internalTables: [])
        }
        let metadata = try readMetadata(db, path: path)
        let entities = try readEntities(db, path: path)
        var tables: [StoreTable] = []
        var bookkeeping: [String] = []
        let tableNames = Set(names)
        var tableOfEntity: [String: [CoreDataEntity]] = [:]
        for entity in entities { tableOfEntity[entity.table, default: []].append(entity) }
        for name in names {
            if coreDataInternalTables.contains(name) || isJoinTable(name) {
                bookkeeping.append(name)
                continue
            }
            var table = try readTable(db, name: name, path: path, coreData: tableOfEntity[name] != nil)
            table.entities = tableOfEntity[name] ?? []
            tables.append(table)
        }
        // An entity whose table is missing is a damaged store; say so rather than guess.
        for (table, members) in tableOfEntity where !tableNames.contains(table) {
            throw StoreError(.malformedSchema, "Z_PRIMARYKEY lists entity \(members[0].name), but its table \(table) does not exist", path: path)
        }
        return StoreSchema(isCoreData: true, metadata: metadata, entities: entities, tables: tables, internalTables: bookkeeping)
    }

    /// Many-to-many relationship tables are named `Z_<n><NAME>`: keys only.
    static func isJoinTable(_ name: String) -> Bool {
        guard name.hasPrefix("Z_") else { return false }
        return name.dropFirst(2).first?.isNumber == true
    }

    static func readMetadata(_ db: Database, path: String) throws(StoreError) -> StoreMetadata? {
        let row: Row? = try StoreConnection.sqlite(path, table: "Z_METADATA") {
            try Row.fetchOne(db, sql: "SELECT * FROM Z_METADATA LIMIT 1")
        }
        guard let row else { return nil }
        let version: Int64? = row.hasColumn("Z_VERSION") ? row["Z_VERSION"] : nil
        let uuid: String? = row.hasColumn("Z_UUID") ? row["Z_UUID"] : nil
        guard row.hasColumn("Z_PLIST"), let bytes = row["Z_PLIST"] as Data? else {
            return StoreMetadata(version: version, uuid: uuid, plist: .null)
        }
        do {
            let plist = try PropertyListReader().read(bytes).value
            return StoreMetadata(version: version, uuid: uuid, plist: plist)
        } catch {
            throw StoreError(.malformedSchema, "Z_PLIST is not a property list: \(error.description)", path: path,
                             table: "Z_METADATA", column: "Z_PLIST")
        }
    }

    static func readEntities(_ db: Database, path: String) throws(StoreError) -> [CoreDataEntity] {
        let rows: [Row] = try StoreConnection.sqlite(path, table: "Z_PRIMARYKEY") {
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        }
        var byID: [Int64: (name: String, superID: Int64, max: Int64)] = [:]
        var order: [Int64] = []
        for row in rows {
            guard let id = row[0] as Int64?, let name = row[1] as String? else {
                throw StoreError(.malformedSchema, "a row without Z_ENT or Z_NAME", path: path, table: "Z_PRIMARYKEY")
            }
            byID[id] = (name, (row[2] as Int64?) ?? 0, (row[3] as Int64?) ?? 0)
            order.append(id)
        }
        return order.compactMap { id in
            guard let entry = byID[id] else { return nil }
            // Walk up to the root; the table is named after it. Cap the walk against a loop.
            var root = entry.name
            var parent = entry.superID
            var steps = 0
            while parent != 0, let up = byID[parent], steps < byID.count {
                root = up.name
                parent = up.superID
                steps += 1
            }
            return CoreDataEntity(id: id, name: entry.name, superID: entry.superID, maximumPrimaryKey: entry.max,
                                  table: "Z" + root.uppercased())
        }
    }

    static func readTable(_ db: Database, name: String, path: String, coreData: Bool) throws(StoreError) -> StoreTable {
        let columns: [ColumnInfo] = try StoreConnection.sqlite(path, table: name) { try db.columns(in: name) }
        let mapped = columns.map { info -> StoreColumn in
            var role = StoreColumn.Role.attribute
            if coreData {
                switch info.name {
                case "Z_PK": role = .primaryKey
                case "Z_ENT": role = .entity
                case "Z_OPT": role = .optimisticLock
                default: break
                }
            }
            return StoreColumn(name: info.name, declaredType: info.type, role: role)
        }
        // WITHOUT ROWID tables have no rowid to name rows by.
        let sql: String? = try StoreConnection.sqlite(path, table: name) {
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name])
        }
        let withoutRowID = sql?.uppercased().replacingOccurrences(of: " ", with: "").hasSuffix("WITHOUTROWID") ?? false
        return StoreTable(name: name, columns: mapped, hasRowID: !withoutRowID)
    }
}

extension StoreSchema {
    /// The attribute name a Core Data column stands for: the column without its `Z`, in lower
    /// case. Core Data writes names in capitals (`tintColor` → `ZTINTCOLOR`), so the original
    /// camel case is not in the store; matching is case-insensitive for that reason.
    public static func attributeName(ofColumn column: String) -> String {
        guard column.hasPrefix("Z"), column.count > 1 else { return column }
        return String(column.dropFirst()).lowercased()
    }

    /// Finds `Entity.attribute` (Core Data, case-insensitive) or `table.column`.
    ///
    /// - Throws: `StoreError.notFound` naming what exists when nothing matches.
    public func locate(_ name: String, path: String? = nil) throws(StoreError) -> AttributeLocation {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw StoreError(.invalidRequest, "name the attribute as Entity.attribute (or table.column), not \"\(name)\"", path: path)
        }
        let (first, second) = (parts[0], parts[1])
        if let entity = entities.first(where: { $0.name.caseInsensitiveCompare(first) == .orderedSame }) {
            guard let table = tables.first(where: { $0.name == entity.table }) else {
                throw StoreError(.notFound, "entity \(entity.name) has no table \(entity.table)", path: path)
            }
            let columnName = second.uppercased().hasPrefix("Z") && table.column(named: second) != nil ? second : "Z" + second.uppercased()
            guard let column = table.column(named: columnName), column.role == .attribute else {
                let known = table.columns.filter { $0.role == .attribute }.map { Self.attributeName(ofColumn: $0.name) }
                throw StoreError(.notFound, "entity \(entity.name) has no attribute \(second) (column \(columnName)); it has: \(known.joined(separator: ", "))",
                                 path: path, table: table.name)
            }
            let family = descendants(of: entity.id)
            let sharesTable = entities.contains { $0.table == entity.table && !family.contains($0.id) }
            return AttributeLocation(table: table, column: column, entity: entity, entityIDs: sharesTable ? family : nil)
        }
        if let table = tables.first(where: { $0.name.caseInsensitiveCompare(first) == .orderedSame }) {
            guard let column = table.column(named: second) else {
                throw StoreError(.notFound, "table \(table.name) has no column \(second); it has: \(table.columns.map(\.name).joined(separator: ", "))",
                                 path: path, table: table.name)
            }
            guard column.role == .attribute else {
                throw StoreError(.invalidRequest, "\(column.name) is Core Data's own bookkeeping column, not an attribute", path: path, table: table.name)
            }
            return AttributeLocation(table: table, column: column, entity: table.entities.first, entityIDs: nil)
        }
        let known = isCoreData ? entities.map(\.name) : tables.map(\.name)
        throw StoreError(.notFound, "no \(isCoreData ? "entity" : "table") named \(first); the store has: \(known.joined(separator: ", "))", path: path)
    }

    /// An entity and every entity below it, as `Z_ENT` values.
    func descendants(of id: Int64) -> [Int64] {
        var out = [id]
        var index = 0
        while index < out.count {
            let parent = out[index]
            for entity in entities where entity.superID == parent && !out.contains(entity.id) { out.append(entity.id) }
            index += 1
        }
        return out
    }
}
