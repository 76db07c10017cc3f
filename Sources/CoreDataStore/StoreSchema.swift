import CoreDataModel
import Foundation
import GRDB
import PropertyList

/// The layout of a store: its Core Data entities and metadata when it is a Core Data store, and
/// the tables whose values are worth scanning.
///
/// With a model (the store's own `Z_MODELCACHE` unless told otherwise), tables and columns come
/// from the model: each column knows the attribute it holds. Core Data's own tables (entity
/// numbers, metadata, the model cache, many-to-many tables, persistent history) are recognized
/// and listed as Core Data's, never scanned as the app's.
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
    /// The same tables, with what each is.
    public var coreDataTables: [CoreDataTable] = []
    /// The model the tables and columns were read with, if any.
    public var model: LoadedModel?
    /// Why there is no model, when one was asked for: no `Z_MODELCACHE`, or one that does not read.
    public var modelProblem: String?
    /// What does not add up but does not stop a scan: an entity without its table, a stored
    /// attribute without its column.
    public var warnings: [String] = []

    public init(isCoreData: Bool, metadata: StoreMetadata?, entities: [CoreDataEntity], tables: [StoreTable], internalTables: [String]) {
        self.isCoreData = isCoreData
        self.metadata = metadata
        self.entities = entities
        self.tables = tables
        self.internalTables = internalTables
    }

    /// Tables Core Data keeps for itself: no attribute values live there.
    static let coreDataInternalTables: [String: CoreDataTable.Kind] = [
        "Z_PRIMARYKEY": .primaryKeys, "Z_METADATA": .metadata, "Z_MODELCACHE": .modelCache,
    ]

    /// Reads the schema of an open store, with the model `choice` names.
    static func read(_ db: Database, path: String, model choice: ModelChoice = .none,
                     modelOptions: ModelReadOptions = .default) throws(StoreError) -> StoreSchema {
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
        var entities = try readEntities(db, path: path)
        let tableNames = Set(names)
        // Persistent history: entities numbered from 16001 whose rows are in A<NAME>.
        for index in entities.indices where !tableNames.contains(entities[index].table) && tableNames.contains("A" + entities[index].name.uppercased()) {
            entities[index].table = "A" + entities[index].name.uppercased()
        }
        var loaded: LoadedModel?
        var modelProblem: String?
        switch choice {
        case .none: break
        case .storeCache:
            do {
                if let model = try readModelCache(db, path: path, tables: tableNames, options: modelOptions) {
                    loaded = model
                } else {
                    modelProblem = "the store has no Z_MODELCACHE"
                }
            } catch {
                modelProblem = "Z_MODELCACHE does not read: \(error.description)"
            }
        case .file(let modelPath):
            do throws(ModelError) {
                loaded = try loadModelFile(modelPath, hashes: metadata?.modelVersionHashes, options: modelOptions)
            } catch {
                throw StoreError(.invalidRequest, "the model \(modelPath) does not read: \(error.description)", path: path)
            }
        }
        if var model = loaded {
            // Columns are numbered in Z_ENT order: the store's, where it has one.
            model.model = model.model.laidOut(entityOrder: entities.filter { !$0.isPersistentHistory }.map(\.name))
            loaded = model
        }
        var schema = StoreSchema(isCoreData: true, metadata: metadata, entities: entities, tables: [], internalTables: [])
        schema.model = loaded
        schema.modelProblem = modelProblem
        var tableOfEntity: [String: [CoreDataEntity]] = [:]
        for entity in entities { tableOfEntity[entity.table, default: []].append(entity) }
        let joinTables = Dictionary((loaded?.model.joinTables ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in names {
            if let kind = coreDataInternalTables[name] {
                schema.coreDataTables.append(CoreDataTable(name: name, kind: kind))
                continue
            }
            if isJoinTable(name) {
                let join = joinTables[name].map { "\($0.relationship.entity).\($0.relationship.name) ↔ \($0.inverse.entity).\($0.inverse.name)" }
                schema.coreDataTables.append(CoreDataTable(name: name, kind: .joinTable, relationship: join))
                continue
            }
            if let members = tableOfEntity[name], members.allSatisfy(\.isPersistentHistory) {
                schema.coreDataTables.append(CoreDataTable(name: name, kind: .persistentHistory))
                continue
            }
            var table = try readTable(db, name: name, path: path, coreData: tableOfEntity[name] != nil)
            table.entities = tableOfEntity[name] ?? []
            if let model = loaded?.model, let layout = model.table(named: name) {
                table.apply(layout, model: model)
            }
            schema.tables.append(table)
        }
        schema.internalTables = schema.coreDataTables.map(\.name)
        // An entity whose table is missing is worth a warning, not a refusal of the whole store.
        for (table, members) in tableOfEntity.sorted(by: { $0.key < $1.key }) where !tableNames.contains(table) {
            schema.warnings.append("Z_PRIMARYKEY lists entity \(members[0].name), but its table \(table) does not exist")
        }
        if let model = loaded?.model { schema.warnings += schema.disagreements(with: model) }
        return schema
    }

    /// What the model lays out that the store does not have.
    func disagreements(with model: ManagedObjectModel) -> [String] {
        var out: [String] = []
        let known = Set(tables.map(\.name))
        for layout in model.tables {
            guard known.contains(layout.name) else {
                out.append("the model's table \(layout.name) (\(layout.entities.joined(separator: ", "))) is not in the store")
                continue
            }
            guard let table = tables.first(where: { $0.name == layout.name }) else { continue }
            let present = Set(table.columns.map { $0.name.uppercased() })
            for (column, role) in layout.columns where !present.contains(column.uppercased()) {
                if case .attribute(let entity, let name) = role {
                    out.append("the model's attribute \(entity).\(name) has no column \(column) in \(layout.name)")
                }
            }
        }
        return out
    }

    /// The model in `Z_MODELCACHE`, or nil when the store has none.
    static func readModelCache(_ db: Database, path: String, tables: Set<String>, options: ModelReadOptions) throws(ModelError) -> LoadedModel? {
        guard tables.contains("Z_MODELCACHE") else { return nil }
        let bytes: Data?
        do {
            bytes = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
        } catch {
            throw ModelError(.cannotRead, StoreConnection.describe(error), source: "Z_MODELCACHE")
        }
        guard let bytes, !bytes.isEmpty else { return nil }
        let model = try ModelReader(options: options).read(modelCache: bytes)
        return LoadedModel(model: model, source: .modelCache(store: path))
    }

    /// A model file, or another store's `Z_MODELCACHE`.
    static func loadModelFile(_ path: String, hashes: [String: Data]?, options: ModelReadOptions) throws(ModelError) -> LoadedModel {
        if isSQLiteFile(path) {
            let result: Result<LoadedModel?, ModelError>
            do {
                let store = try StoreConnection.openForReading(path)
                defer { store.close() }
                result = try StoreConnection.sqlite(path) {
                    try store.queue.read { db in
                        let names = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                        do throws(ModelError) {
                            return .success(try readModelCache(db, path: path, tables: names, options: options))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
            } catch {
                throw ModelError(.cannotRead, error.description, source: path)
            }
            switch result {
            case .success(let loaded?): return loaded
            case .success(nil): throw ModelError(.notAModel, "the store has no Z_MODELCACHE", source: path)
            case .failure(let error): throw error.from(path)
            }
        }
        return try ModelReader(options: options).read(path: path, storeHashes: hashes)
    }

    /// Whether the file at `path` starts with SQLite's header.
    static func isSQLiteFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: StoreConnection.header.count) else { return false }
        return Array(head) == StoreConnection.header
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
        // WITHOUT ROWID tables have no rowid to name rows by.
        let sql: String? = try StoreConnection.sqlite(path, table: name) {
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name])
        }
        let withoutRowID = sql?.uppercased().replacingOccurrences(of: " ", with: "").hasSuffix("WITHOUTROWID") ?? false
        // Outside Core Data, a lone INTEGER PRIMARY KEY column is the rowid under its own name
        // (`id`), and rows are named by it.
        let keyParts = columns.filter { $0.primaryKeyIndex > 0 }
        let rowidAlias = !coreData && !withoutRowID && keyParts.count == 1 && keyParts[0].type.uppercased() == "INTEGER" ? keyParts[0].name : nil
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
        var table = StoreTable(name: name, columns: mapped, hasRowID: !withoutRowID)
        table.rowidAlias = rowidAlias
        return table
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
        if let model = model?.model, let modelEntity = model.entity(named: first),
           let entity = entities.first(where: { $0.name == modelEntity.name }) {
            return try locate(second, of: modelEntity, entity: entity, model: model, path: path)
        }
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
            var location = AttributeLocation(table: table, column: column, entity: table.entities.first, entityIDs: nil)
            // A column the model knows keeps its attribute (and so its transformer).
            location.attribute = column.attribute
            location.attributeName = column.modelName
            return location
        }
        let known = isCoreData ? entities.map(\.name) : tables.map(\.name)
        throw StoreError(.notFound, "no \(isCoreData ? "entity" : "table") named \(first); the store has: \(known.joined(separator: ", "))", path: path)
    }

    /// Finds an attribute the way the model names it (its own case, or any case), inherited
    /// attributes included, in the column the model gives it.
    func locate(_ name: String, of modelEntity: EntityDescription, entity: CoreDataEntity, model: ManagedObjectModel,
                path: String?) throws(StoreError) -> AttributeLocation {
        guard let (declaring, attribute) = model.attribute(name, of: modelEntity.name) else {
            let known = model.allAttributes(of: modelEntity.name).map(\.name)
            throw StoreError(.notFound, "entity \(modelEntity.name) has no attribute \(name) in the model; it has: \(known.joined(separator: ", "))", path: path)
        }
        guard let columnName = attribute.column else {
            throw StoreError(.invalidRequest, "\(declaring.name).\(attribute.name) is transient: it is never stored, so there is nothing to read", path: path)
        }
        guard let table = tables.first(where: { $0.name == modelEntity.table }), let column = table.column(named: columnName) else {
            throw StoreError(.notFound, "the model stores \(declaring.name).\(attribute.name) in \(modelEntity.table).\(columnName), which the store does not have", path: path)
        }
        let family = descendants(of: entity.id)
        let sharesTable = entities.contains { $0.table == entity.table && !family.contains($0.id) }
        var location = AttributeLocation(table: table, column: column, entity: entity, entityIDs: sharesTable ? family : nil)
        location.attribute = attribute
        location.attributeName = "\(modelEntity.name).\(attribute.name)"
        return location
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
