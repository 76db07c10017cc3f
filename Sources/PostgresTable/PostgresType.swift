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
