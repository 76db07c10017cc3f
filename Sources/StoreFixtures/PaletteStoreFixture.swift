import CoreDataModel
import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
import PropertyList

/// Writes the Palette store: a Core Data SQLite store of `PaletteModel`, with its own
/// `Z_MODELCACHE` (the model archived by `ManagedObjectModelArchiver` and raw-deflated with
/// zlib), `Z_METADATA` whose `NSStoreModelVersionHashes` are the version's, `Z_PRIMARYKEY`,
/// and tables and columns exactly as the model lays them out.
///
/// Rows, by `Z_PK` of `ZGROUP` (from 1; every 5th a Team, every 7th a Club, the rest Groups):
/// - `darkColor`: a UIColor archive (as iOS archives it) in every row but every 10th;
/// - `recentSearches`: an NSArray of NSString, as the legacy transformer archives `[String]`;
/// - `accent` (version 2): a `Palette.SerializableColor` archive under its mangled Swift name
///   (`colorSpace`, `red`, `green`, `blue`, `alpha`), every other row;
/// - two members per group, the second with an 8×8 PNG avatar.
public struct PaletteStoreFixture: Sendable {
    public var groupCount: Int
    /// `PaletteModel.version2` unless set.
    public var model: ManagedObjectModel
    public var storeUUID = UUID(uuidString: "0B5C4E2A-6D7F-4A18-8E3B-51C2D9F0A7E4") ?? UUID()
    /// Write `Z_MODELCACHE` (false: a store of an app whose cache is gone).
    public var writesModelCache = true

    public init(groupCount: Int = 40, model: ManagedObjectModel = PaletteModel.version2) {
        self.groupCount = groupCount
        self.model = model
    }

    /// The entity of `ZGROUP` row `pk`.
    public static func groupEntity(_ pk: Int) -> String {
        pk % 7 == 0 ? "Club" : pk % 5 == 0 ? "Team" : "Group"
    }

    /// Which rows hold a value, by attribute.
    public static func hasDarkColor(_ pk: Int) -> Bool { pk % 10 != 0 }
    public static func hasAccent(_ pk: Int) -> Bool { pk % 2 == 1 }

    /// The mangled name Swift gives `Palette.SerializableColor`.
    public static let serializableColorClass = "_TtC7Palette17SerializableColor"

    /// Writes the store at `path`, replacing any store there.
    public func write(to path: String) throws(StoreError) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let cache: Data
        do {
            cache = try ManagedObjectModelArchiver().modelCache(model)
        } catch {
            throw StoreError(.invalidRequest, "cannot archive the model: \(error)", path: path)
        }
        let model = self.model
        try FixtureSQLite.run(path) {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in
                try Self.createTables(db, model: model)
                try db.inTransaction {
                    for name in model.entityOrder {
                        guard let id = model.entityID(of: name) else { continue }
                        let parent = model.entity(named: name)?.parentEntity.flatMap(model.entityID) ?? 0
                        try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                       arguments: [id, name, parent])
                    }
                    try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                   arguments: [storeUUID.uuidString, metadataPlist()])
                    if writesModelCache { try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [cache]) }
                    try insertRows(db)
                    return .commit
                }
            }
        }
    }

    /// The empty tables of a Core Data store of `model` (`Z_PRIMARYKEY`, `Z_METADATA`,
    /// `Z_MODELCACHE` and one per entity table), in WAL mode with incremental auto-vacuum, as
    /// Core Data creates them; the fixtures of other stores write theirs this way too.
    static func createTables(_ db: Database, model: ManagedObjectModel) throws {
        try db.execute(sql: "PRAGMA auto_vacuum = 2")
        try db.execute(sql: "PRAGMA journal_mode = WAL")
        try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        for table in model.tables {
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            for (name, role) in table.columns {
                columns.append("\(name) \(Self.sqlType(role, model: model))")
            }
            try db.execute(sql: "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
    }

    static func sqlType(_ role: StoreColumnRole, model: ManagedObjectModel) -> String {
        guard case .attribute(let entity, let name) = role,
              let attribute = model.entity(named: entity)?.attributes.first(where: { $0.name == name }) else { return "INTEGER" }
        switch attribute.attributeType {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float: return "FLOAT"
        case .decimal: return "DECIMAL"
        case .date: return "TIMESTAMP"
        case .string, .uri: return "VARCHAR"
        default: return "BLOB"
        }
    }

    func insertRows(_ db: Database) throws {
        let table = model.table(named: "ZGROUP")
        let has = Set(table?.columns.map(\.name) ?? [])
        var members = 0
        for pk in 1...max(1, groupCount) where groupCount > 0 {
            let entity = Self.groupEntity(pk)
            let id = model.entityID(of: model.entity(named: entity) == nil ? "Group" : entity) ?? 1
            var names = ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME"]
            var values: [DatabaseValueConvertible?] = [pk, id, 1, "\(entity) \(pk)"]
            if Self.hasDarkColor(pk) {
                names.append("ZDARKCOLOR")
                values.append(try Self.uiColor(pk))
            }
            names.append("ZRECENTSEARCHES")
            values.append(try Self.searches(pk))
            if has.contains("ZACCENT"), Self.hasAccent(pk) {
                names.append("ZACCENT")
                values.append(try Self.serializableColor(pk))
            }
            if has.contains("ZRATING") {
                names.append("ZRATING")
                values.append(pk % 6)
            }
            if entity == "Club", has.contains("ZBADGE") {
                names += ["ZBADGE", "ZFOUNDED"]
                values += ["club badge \(pk)", 700_000_000.0 + Double(pk)]
            }
            if entity == "Team", has.contains("ZBADGE1") {
                names.append("ZBADGE1")
                values.append("team badge \(pk)")
            }
            let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
            try db.execute(sql: "INSERT INTO ZGROUP (\(names.joined(separator: ", "))) VALUES (\(marks))", arguments: StatementArguments(values))
            for index in 0..<2 {
                members += 1
                var memberNames = ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZGROUP"]
                var memberValues: [DatabaseValueConvertible?] = [members, model.entityID(of: "Member") ?? 0, 1, "member \(members)", pk]
                if index == 1, model.table(named: "ZMEMBER")?.role(ofColumn: "ZAVATAR") != nil {
                    memberNames.append("ZAVATAR")
                    memberValues.append(TinyPNG.solid(width: 8, height: 8, red: UInt8(pk % 256), green: 40, blue: 200))
                }
                let memberMarks = Array(repeating: "?", count: memberNames.count).joined(separator: ", ")
                try db.execute(sql: "INSERT INTO ZMEMBER (\(memberNames.joined(separator: ", "))) VALUES (\(memberMarks))",
                               arguments: StatementArguments(memberValues))
            }
        }
        for name in model.entityOrder {
            guard let id = model.entityID(of: name) else { continue }
            let table = model.entity(named: name)?.table ?? "ZGROUP"
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT COALESCE(MAX(Z_PK), 0) FROM \(table)) WHERE Z_ENT = ?", arguments: [id])
        }
    }

    /// The color of row `pk`, in [0, 1].
    public static func color(_ pk: Int) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        (Double(pk % 11) / 10, Double(pk % 7) / 6, Double(pk % 5) / 4, 1)
    }

    static func uiColor(_ pk: Int) throws -> Data {
        let c = color(pk)
        var b = KeyedArchiveBuilder()
        let root = b.uiColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    /// The searches of row `pk`: an NSArray of NSString.
    public static func searchTerms(_ pk: Int) -> [String] { ["teal", "group \(pk)"] }

    static func searches(_ pk: Int) throws -> Data {
        var b = KeyedArchiveBuilder()
        let root = b.array(searchTerms(pk).map { b.string($0) })
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    static func serializableColor(_ pk: Int) throws -> Data {
        let c = color(pk)
        var b = KeyedArchiveBuilder()
        func float(_ v: Double) -> ArchivedValue { .inline(.real(Double(Float(v)))) }
        let root = b.object(serializableColorClass, fields: [
            ArchivedField(key: "colorSpace", value: .inline(.integer(PropertyListInteger(pk % 2)))),
            ArchivedField(key: "red", value: float(c.red)),
            ArchivedField(key: "green", value: float(c.green)),
            ArchivedField(key: "blue", value: float(c.blue)),
            ArchivedField(key: "alpha", value: float(c.alpha)),
        ])
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    /// `Z_PLIST`, with the model version's entity hashes.
    func metadataPlist() -> Data {
        var hashes = PropertyListDictionary()
        let table = PaletteModel.versionHashes(model)
        for name in table.keys.sorted() { hashes.append(key: .string(name), value: .data(table[name] ?? Data())) }
        return StoreMetadataPlist.data(frameworkVersion: 1_141, hashes: hashes, storeUUID: storeUUID)
    }
}

/// Writes `Palette.momd` as momc lays a compiled model bundle out: one `.mom` per version (the
/// archived model) and `VersionInfo.plist` with the current version and each version's entity
/// hashes.
public enum CompiledModelFixture {
    /// The files of the bundle, by name.
    public static func files() throws -> [(name: String, data: Data)] {
        var out: [(String, Data)] = []
        var hashes = PropertyListDictionary()
        for (name, model) in PaletteModel.versions {
            out.append((name + ".mom", try ManagedObjectModelArchiver().write(model)))
            var entityHashes = PropertyListDictionary()
            let table = PaletteModel.versionHashes(model)
            for entity in table.keys.sorted() { entityHashes.append(key: .string(entity), value: .data(table[entity] ?? Data())) }
            hashes.append(key: .string(name), value: .dictionary(entityHashes))
        }
        var info = PropertyListDictionary()
        info.append(key: "NSManagedObjectModel_CurrentVersionName", value: .string(PaletteModel.versionNames[1]))
        info.append(key: "NSManagedObjectModel_VersionHashes", value: .dictionary(hashes))
        out.append(("VersionInfo.plist", try XMLPropertyListWriter().write(.dictionary(info))))
        return out
    }

    /// Writes the bundle into `directory` (created if needed).
    public static func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, data) in try files() { try data.write(to: directory.appendingPathComponent(name)) }
    }
}
