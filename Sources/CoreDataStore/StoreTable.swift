import CoreDataModel
import Foundation

/// A table that holds rows worth scanning: a Core Data entity table, or any table of another
/// SQLite file.
public struct StoreTable: Sendable, Hashable {
    public var name: String
    public var columns: [StoreColumn]
    /// The entities whose rows live here, root first; empty outside Core Data stores.
    public var entities: [CoreDataEntity]
    /// The model's transient attributes of these entities (`Entity.attribute`): they have no
    /// column, and are not missing.
    public var transientAttributes: [String] = []
    /// Whether rows have a rowid (`Z_PK` is an alias of it in Core Data tables).
    public var hasRowID: Bool
    /// Outside Core Data, the table's INTEGER PRIMARY KEY column: the rowid under its own name.
    public var rowidAlias: String?

    public init(name: String, columns: [StoreColumn], entities: [CoreDataEntity] = [], hasRowID: Bool = true) {
        self.name = name
        self.columns = columns
        self.entities = entities
        self.hasRowID = hasRowID
    }

    /// The root entity's name, for Core Data tables.
    public var entityName: String? { entities.first?.name }

    public func column(named name: String) -> StoreColumn? {
        // The exact name first: a case-insensitive comparison costs far more on Linux.
        columns.first { $0.name == name } ?? columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The column that identifies a row in reports and updates: `Z_PK`, the table's INTEGER
    /// PRIMARY KEY column outside Core Data, else the rowid.
    public var keyColumn: String {
        columns.first(where: { $0.role == .primaryKey })?.name ?? rowidAlias ?? "rowid"
    }

    /// Whether rows have Core Data's `Z_OPT` counter.
    public var hasOptimisticLock: Bool { columns.contains { $0.role == .optimisticLock } }

    /// Names the columns as the model lays the table out: each attribute's and relationship's
    /// column gets its role and attribute. A `Z<n>_<NAME>` column beside a to-one relationship's
    /// `Z<NAME>` is that relationship's entity column whatever its number.
    mutating func apply(_ layout: EntityTableLayout, model: ManagedObjectModel) {
        for index in columns.indices where columns[index].role == .attribute {
            let name = columns[index].name
            var role = layout.role(ofColumn: name)
            if role == nil, let match = Self.entityColumnPattern(name),
               case .toOne(let entity, let relationship)? = layout.role(ofColumn: "Z" + match) {
                role = .toOneEntity(entity: entity, name: relationship)
            }
            columns[index].modelRole = role
            if case .attribute(let entity, let attribute)? = role {
                columns[index].attribute = model.entity(named: entity)?.attributes.first { $0.name == attribute }
            }
        }
        transientAttributes = layout.entities.flatMap { name in
            (model.entity(named: name)?.attributes ?? []).filter(\.isTransient).map { "\(name).\($0.name)" }
        }
    }

    /// `CLOUDSYNCINGOBJECT` for `Z2_CLOUDSYNCINGOBJECT`.
    static func entityColumnPattern(_ name: String) -> String? {
        guard name.hasPrefix("Z"), let underscore = name.firstIndex(of: "_") else { return nil }
        let digits = name[name.index(after: name.startIndex)..<underscore]
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber) else { return nil }
        let rest = name[name.index(after: underscore)...]
        return rest.isEmpty ? nil : String(rest)
    }
}
