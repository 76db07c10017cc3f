/// One row of `Z_PRIMARYKEY`: a Core Data entity.
public struct CoreDataEntity: Sendable, Hashable {
    /// `Z_ENT`: the entity's number, stored in every row's `Z_ENT` column.
    public var id: Int64
    /// `Z_NAME`: the entity name as the model spells it (`BowTie`).
    public var name: String
    /// `Z_SUPER`: the parent entity's `Z_ENT`, 0 for a root entity.
    public var superID: Int64
    /// `Z_MAX`: the highest `Z_PK` handed out so far.
    public var maximumPrimaryKey: Int64
    /// The table holding the entity's rows: `Z` + the root entity's name in capitals, because
    /// Core Data stores a whole inheritance tree in its root's table.
    public var table: String

    /// Core Data's persistent-history entities (`TRANSACTION`, `CHANGE`, `TRANSACTIONSTRING`,
    /// numbered from 16001) live in `A<NAME>` tables, not in the app's model.
    public var isPersistentHistory: Bool { table.hasPrefix("A") }

    public init(id: Int64, name: String, superID: Int64, maximumPrimaryKey: Int64, table: String) {
        self.id = id
        self.name = name
        self.superID = superID
        self.maximumPrimaryKey = maximumPrimaryKey
        self.table = table
    }
}
