import CoreDataModel

/// A column of a table, with what its declared type says about its values.
public struct StoreColumn: Sendable, Hashable {
    /// SQLite's type affinity for the declared type (https://sqlite.org/datatype3.html §3.1).
    public enum Affinity: String, Sendable, Hashable {
        case integer, real, numeric, text, blob
    }

    /// What the column is for, in a Core Data table.
    public enum Role: String, Sendable, Hashable {
        /// `Z_PK`, the row's primary key.
        case primaryKey
        /// `Z_ENT`, the row's entity.
        case entity
        /// `Z_OPT`, the optimistic-locking counter Core Data bumps on every save of the row.
        case optimisticLock
        /// Any other column: an attribute (`Z<ATTRIBUTE>`) or a to-one relationship's key.
        case attribute
    }

    public var name: String
    /// What the model says the column holds, when a model was read.
    public var modelRole: StoreColumnRole?
    /// The model's attribute, for an attribute column.
    public var attribute: AttributeDescription?
    /// The type as declared: Core Data writes INTEGER, FLOAT, TIMESTAMP, VARCHAR, BLOB, DECIMAL.
    public var declaredType: String
    public var affinity: Affinity
    public var role: Role

    public init(name: String, declaredType: String, role: Role = .attribute) {
        self.name = name
        self.declaredType = declaredType
        self.affinity = Self.affinity(of: declaredType)
        self.role = role
    }

    /// The entity and property name the model gives the column (`Group.darkColor`), if any.
    public var modelName: String? {
        modelRole.map { "\($0.property.entity).\($0.property.name)" }
    }

    /// Whether the declared type is a number or date: such a column holds no documents unless
    /// a writer ignored its type, which the scan still notices.
    public var isScalar: Bool { affinity == .integer || affinity == .real || affinity == .numeric }

    /// SQLite's rules, in their order.
    static func affinity(of declared: String) -> Affinity {
        let type = declared.uppercased()
        if type.contains("INT") { return .integer }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .text }
        if type.contains("BLOB") || type.isEmpty { return .blob }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .real }
        return .numeric
    }
}
