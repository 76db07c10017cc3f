import Foundation

/// A table that holds rows worth scanning: a Core Data entity table, or any table of another
/// SQLite file.
public struct StoreTable: Sendable, Hashable {
    public var name: String
    public var columns: [StoreColumn]
    /// The entities whose rows live here, root first; empty outside Core Data stores.
    public var entities: [CoreDataEntity]
    /// Whether rows have a rowid (`Z_PK` is an alias of it in Core Data tables).
    public var hasRowID: Bool

    public init(name: String, columns: [StoreColumn], entities: [CoreDataEntity] = [], hasRowID: Bool = true) {
        self.name = name
        self.columns = columns
        self.entities = entities
        self.hasRowID = hasRowID
    }

    /// The root entity's name, for Core Data tables.
    public var entityName: String? { entities.first?.name }

    public func column(named name: String) -> StoreColumn? {
        columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The column that identifies a row in reports and updates: `Z_PK`, else the rowid.
    public var keyColumn: String {
        columns.first(where: { $0.role == .primaryKey })?.name ?? "rowid"
    }

    /// Whether rows have Core Data's `Z_OPT` counter.
    public var hasOptimisticLock: Bool { columns.contains { $0.role == .optimisticLock } }
}
