import Foundation

/// A row's key: the value keyset pagination orders by and updates are matched on.
public enum PostgresKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `smallint`, `integer` or `bigint`.
    case integer(Int64)
    /// `uuid`, in PostgreSQL's order (its bytes, unsigned, first to last).
    case uuid(UUID)

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .uuid(let value): value.uuidString.lowercased()
        }
    }

    public static func < (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.uuid(let x), .uuid(let y)): return withUnsafeBytes(of: x.uuid) { p in withUnsafeBytes(of: y.uuid) { q in p.lexicographicallyPrecedes(q) } }
        case (.integer, .uuid): return true
        case (.uuid, .integer): return false
        }
    }

    /// The key in binary wire form (`int8` or `uuid`).
    var binary: Data {
        switch self {
        case .integer(let value): PostgresBinary.int64(value)
        case .uuid(let value): withUnsafeBytes(of: value.uuid) { Data($0) }
        }
    }
}

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
