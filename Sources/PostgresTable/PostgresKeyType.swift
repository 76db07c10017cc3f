import Foundation

/// What type a table's key has, which decides how keys travel and how shards are hashed.
public enum PostgresKeyType: String, Sendable, Hashable {
    case smallint, integer, bigint, uuid

    init?(typeOID: UInt32) {
        switch typeOID {
        case PostgresType.int2: self = .smallint
        case PostgresType.int4: self = .integer
        case PostgresType.int8: self = .bigint
        case PostgresType.uuid: self = .uuid
        default: return nil
        }
    }

    /// The type keys are sent as (`int8` for every integer type: the comparisons stay indexable).
    var wireType: UInt32 { self == .uuid ? PostgresType.uuid : PostgresType.int8 }

    /// The SQL type name of `wireType`, for casts of parameters.
    var wireTypeName: String { self == .uuid ? "uuid" : "int8" }

    /// A key read in binary form from a result column of this type.
    func key(in result: PostgresResult, row: Int, column: Int) -> PostgresKey? {
        if self == .uuid {
            return result.withBytes(row, column) { bytes -> PostgresKey? in
                guard let bytes, bytes.count == 16 else { return nil }
                var uuid = UUID().uuid
                withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
                return .uuid(UUID(uuid: uuid))
            }
        }
        return result.int64(row, column).map { .integer($0) }
    }

    /// The SQL expression whose value, from 0 to 2^31 - 1, decides a row's shard: PostgreSQL's
    /// own hash of the key (the one hash partitioning uses), so every process on every machine
    /// computes the same, and rows inserted later fall in exactly one shard.
    func shardHash(of key: String) -> String {
        switch self {
        case .uuid: "(uuid_hash(\(key)) & 2147483647)"
        case .smallint, .integer, .bigint: "(hashint8(\(key)::int8) & 2147483647)"
        }
    }
}
