/// Where an attribute's values are: its table and column, and which entities' rows to read.
public struct AttributeLocation: Sendable, Hashable, CustomStringConvertible {
    public var table: StoreTable
    public var column: StoreColumn
    /// The entity asked for, in a Core Data store.
    public var entity: CoreDataEntity?
    /// `Z_ENT` values to restrict rows to, when the entity shares its table with others in its
    /// inheritance tree; nil for all rows.
    public var entityIDs: [Int64]?

    /// `BowTie.tintcolor (ZBOWTIE.ZTINTCOLOR)`, or `table.column`.
    public var description: String {
        if let entity { return "\(entity.name).\(StoreSchema.attributeName(ofColumn: column.name)) (\(table.name).\(column.name))" }
        return "\(table.name).\(column.name)"
    }
}
