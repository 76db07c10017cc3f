import Foundation

/// One table of a Core Data store as the model lays it out: the rows of a root entity and all
/// its subentities, and a column per stored property.
public struct EntityTableLayout: Sendable, Hashable {
    /// `Z` and the root entity's name in capitals.
    public var name: String
    /// The entities whose rows live here, in `Z_ENT` order (root first).
    public var entities: [String]
    /// Columns by name, in the order they were assigned (besides `Z_PK`, `Z_ENT`, `Z_OPT`).
    public var columns: [(name: String, role: StoreColumnRole)]

    public init(name: String, entities: [String], columns: [(name: String, role: StoreColumnRole)]) {
        self.name = name
        self.entities = entities
        self.columns = columns
    }

    /// The role of a column (any case), if the model lays it out.
    public func role(ofColumn column: String) -> StoreColumnRole? {
        columns.first { $0.name == column }?.role ?? columns.first { $0.name.caseInsensitiveCompare(column) == .orderedSame }?.role
    }

    public static func == (a: EntityTableLayout, b: EntityTableLayout) -> Bool {
        a.name == b.name && a.entities == b.entities && a.columns.elementsEqual(b.columns) { $0.name == $1.name && $0.role == $1.role }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(entities)
        for column in columns { hasher.combine(column.name) }
    }
}

/// A many-to-many relationship's table: `Z_<n><NAME>`, one row per pair.
public struct JoinTableLayout: Sendable, Hashable {
    public var name: String
    /// The relationship the table is named after, and its inverse.
    public var relationship: (entity: String, name: String)
    public var inverse: (entity: String, name: String)

    public static func == (a: JoinTableLayout, b: JoinTableLayout) -> Bool {
        a.name == b.name && a.relationship == b.relationship && a.inverse == b.inverse
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
