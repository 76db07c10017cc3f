/// A column as the server describes it.
public struct PostgresColumn: Sendable, Hashable {
    public var name: String
    /// The type as `format_type` spells it: `bytea`, `character varying(200)`, `jsonb`.
    public var typeName: String
    /// The type's OID, or its base type's for a domain.
    public var baseType: UInt32
    public var isNotNull: Bool

    /// What a column of this type can hold, for reading documents and writing converted values.
    public enum Storage: String, Sendable, Hashable {
        /// `bytea`: any bytes.
        case bytes
        /// `text`, `varchar`, `char`: UTF-8 text, no NUL.
        case text
        /// `jsonb` (or `json`): a JSON document.
        case json
        /// Anything else (numbers, dates…): no documents.
        case other
    }

    public var storage: Storage {
        switch baseType {
        case PostgresType.bytea: .bytes
        case PostgresType.text, PostgresType.varchar, 1042 /* bpchar */: .text
        case PostgresType.jsonb, PostgresType.json: .json
        default: .other
        }
    }

    /// The column's name in SQL.
    var quoted: String { PostgresConnection.quote(name) }
}
