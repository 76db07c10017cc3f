import Foundation

/// A value sent with a statement, in PostgreSQL's binary wire format where it has a type.
///
/// Binary parameters skip the server's text parsing and our hex encoding of `bytea`, which is
/// most of the cost of sending a batch of blobs.
package struct PostgresParameter: Sendable {
    /// The bytes sent; nil for SQL NULL.
    var bytes: Data?
    /// The type's OID; 0 lets the server infer it (text format only).
    var type: UInt32
    /// Whether `bytes` are in the binary format.
    var isBinary: Bool

    package static let null = PostgresParameter(bytes: nil, type: 0, isBinary: false)

    /// Text, whose type the server infers from the statement.
    package static func text(_ value: String) -> PostgresParameter {
        PostgresParameter(bytes: Data(value.utf8), type: 0, isBinary: false)
    }

    package static func int64(_ value: Int64) -> PostgresParameter {
        PostgresParameter(bytes: PostgresBinary.int64(value), type: PostgresType.int8, isBinary: true)
    }

    package static func int32(_ value: Int32) -> PostgresParameter {
        PostgresParameter(bytes: PostgresBinary.int32(value), type: PostgresType.int4, isBinary: true)
    }

    package static func bytea(_ value: Data?) -> PostgresParameter {
        PostgresParameter(bytes: value, type: PostgresType.bytea, isBinary: true)
    }

    /// A one-dimensional array of `elementType`, each element already in binary form (nil: NULL).
    package static func array(_ elements: [Data?], elementType: UInt32) -> PostgresParameter {
        PostgresParameter(bytes: PostgresBinary.array(elements, elementType: elementType),
                          type: PostgresType.arrayType(of: elementType), isBinary: true)
    }
}
