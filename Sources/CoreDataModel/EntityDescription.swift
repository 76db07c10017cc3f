import Foundation

/// One entity of a model, with what it declares itself: inherited attributes and relationships
/// are its parent's, as in Xcode's `contents` file.
public struct EntityDescription: Sendable, Hashable {
    public var name: String
    /// The class instances are made of (`NSManagedObject` subclasses); nil for NSManagedObject.
    public var representedClassName: String?
    /// The parent entity's name, for a subentity.
    public var parentEntity: String?
    public var isAbstract: Bool
    /// The attributes the entity declares, by name.
    public var attributes: [AttributeDescription]
    /// The relationships the entity declares, by name.
    public var relationships: [RelationshipDescription]
    /// The table holding its rows: `Z` and the root entity's name in capitals. Set by
    /// `ManagedObjectModel`.
    public var table: String

    public init(name: String, representedClassName: String? = nil, parentEntity: String? = nil, isAbstract: Bool = false,
                attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = []) {
        self.name = name
        self.representedClassName = representedClassName
        self.parentEntity = parentEntity
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.table = "Z" + name.uppercased()
    }

    /// The attribute the entity declares under `name` (exact case, then any case).
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name } ?? attributes.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name } ?? relationships.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }
}
