/// One relationship of an entity.
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    /// The entity at the other end.
    public var destinationEntity: String?
    /// The relationship back, on the destination entity.
    public var inverseName: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    /// The column holding the destination's `Z_PK` for a stored to-one relationship; nil for
    /// to-many relationships, which live in the destination's table or a join table.
    public var column: String?

    public init(name: String, destinationEntity: String?, inverseName: String? = nil, isToMany: Bool, isOrdered: Bool = false,
                isOptional: Bool = true, isTransient: Bool = false, column: String? = nil) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.column = column
    }
}
