/// What a column of an entity table holds, as the model lays the table out.
public enum StoreColumnRole: Sendable, Hashable {
    /// A stored attribute, declared by `entity`.
    case attribute(entity: String, name: String)
    /// A to-one relationship: the destination row's `Z_PK`.
    case toOne(entity: String, name: String)
    /// Beside a to-one relationship whose destination has subentities: the destination row's
    /// `Z_ENT` (`Z2_CLOUDSYNCINGOBJECT`).
    case toOneEntity(entity: String, name: String)
    /// In the destination's table, for a to-many relationship with no to-one inverse: the
    /// source row's `Z_PK` (`Z1CALLEVENTS`).
    case toManyKey(entity: String, name: String)
    /// The position of a row in an ordered to-many relationship (`Z_FOK_…`).
    case orderKey(entity: String, name: String)

    /// The entity and property the column belongs to.
    public var property: (entity: String, name: String) {
        switch self {
        case .attribute(let e, let n), .toOne(let e, let n), .toOneEntity(let e, let n), .toManyKey(let e, let n), .orderKey(let e, let n):
            (e, n)
        }
    }
}
