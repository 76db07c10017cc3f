/// A table Core Data keeps for itself, not for the app's entities.
public struct CoreDataTable: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// `Z_PRIMARYKEY`: each entity's number, parent and highest key.
        case primaryKeys
        /// `Z_METADATA`: the store's UUID and model version hashes.
        case metadata
        /// `Z_MODELCACHE`: the compiled model, raw DEFLATE.
        case modelCache
        /// `Z_<n><NAME>`: a many-to-many relationship's pairs.
        case joinTable
        /// `ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`: persistent history tracking.
        case persistentHistory
    }

    public var name: String
    public var kind: Kind
    /// For a join table, the relationship it holds (`Account.enabledDataclasses`), when the
    /// model names it.
    public var relationship: String?

    public init(name: String, kind: Kind, relationship: String? = nil) {
        self.name = name
        self.kind = kind
        self.relationship = relationship
    }

    /// What the table is, in words.
    public var label: String {
        switch kind {
        case .primaryKeys: "entity numbers"
        case .metadata: "store metadata"
        case .modelCache: "compiled model"
        case .joinTable: relationship.map { "many-to-many \($0)" } ?? "many-to-many relationship"
        case .persistentHistory: "persistent history"
        }
    }
}
