import CoreDataModel

/// Where an attribute's values are: its table and column, and which entities' rows to read.
public struct AttributeLocation: Sendable, Hashable, CustomStringConvertible {
    public var table: StoreTable
    public var column: StoreColumn
    /// The entity asked for, in a Core Data store.
    public var entity: CoreDataEntity?
    /// `Z_ENT` values to restrict rows to, when the entity shares its table with others in its
    /// inheritance tree; nil for all rows.
    public var entityIDs: [Int64]?
    /// The model's attribute, when the store was read with a model.
    public var attribute: AttributeDescription?
    /// `Group.darkColor`: the entity asked for and the attribute as the model spells it.
    public var attributeName: String?

    public init(table: StoreTable, column: StoreColumn, entity: CoreDataEntity?, entityIDs: [Int64]?) {
        self.table = table
        self.column = column
        self.entity = entity
        self.entityIDs = entityIDs
    }

    /// `BowTie.tintcolor (ZBOWTIE.ZTINTCOLOR)`, or `table.column`.
    public var description: String {
        if let attributeName { return "\(attributeName) (\(table.name).\(column.name))" }
        if let entity { return "\(entity.name).\(StoreSchema.attributeName(ofColumn: column.name)) (\(table.name).\(column.name))" }
        return "\(table.name).\(column.name)"
    }
}
