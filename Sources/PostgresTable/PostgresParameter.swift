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

/// The type OIDs Archivist sends and reads (fixed in every PostgreSQL since 7.x: `pg_type.dat`).
package enum PostgresType {
    package static let bool: UInt32 = 16
    package static let bytea: UInt32 = 17
    package static let int8: UInt32 = 20
    package static let int2: UInt32 = 21
    package static let int4: UInt32 = 23
    package static let text: UInt32 = 25
    package static let json: UInt32 = 114
    package static let varchar: UInt32 = 1043
    package static let uuid: UInt32 = 2950
    package static let jsonb: UInt32 = 3802

    static func arrayType(of element: UInt32) -> UInt32 {
        switch element {
        case bytea: 1001
        case int2: 1005
        case int4: 1007
        case int8: 1016
        case text: 1009
        case uuid: 2951
        case jsonb: 3807
        default: 0
        }
    }
}

/// PostgreSQL's binary wire encodings (network byte order).
package enum PostgresBinary {
    package static func int64(_ value: Int64) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    package static func int32(_ value: Int32) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    /// `array_send`'s layout: dimensions, a has-nulls flag, the element type, then for the one
    /// dimension its length and lower bound (1), then each element as a length (-1 for NULL)
    /// and its bytes.
    static func array(_ elements: [Data?], elementType: UInt32) -> Data {
        var size = 20
        for element in elements { size += 4 + (element?.count ?? 0) }
        var out = Data(capacity: size)
        func append(_ v: Int32) { withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) } }
        append(1)
        append(elements.contains(where: { $0 == nil }) ? 1 : 0)
        append(Int32(bitPattern: elementType))
        append(Int32(clamping: elements.count))
        append(1)
        for element in elements {
            if let element {
                append(Int32(clamping: element.count))
                out.append(element)
            } else {
                append(-1)
            }
        }
        return out
    }
}
