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
