internal import CLibPQ
import Foundation

/// The rows a statement returned, in binary format, freed with the value.
package final class PostgresResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { PQclear(handle) }

    package var rowCount: Int { Int(PQntuples(handle)) }
    package var columnCount: Int { Int(PQnfields(handle)) }

    /// Rows a command changed (`UPDATE`, `INSERT`), from its tag.
    package var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    package func type(ofColumn column: Int) -> UInt32 { UInt32(PQftype(handle, Int32(column))) }

    package func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    /// The value's bytes, valid while the result lives; nil for NULL.
    package func withBytes<T>(_ row: Int, _ column: Int, _ body: (UnsafeRawBufferPointer?) throws -> T) rethrows -> T {
        guard !isNull(row, column), let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return try body(nil) }
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        return try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(value), count: length))
    }

    /// The value's bytes as `Data`; nil for NULL.
    package func data(_ row: Int, _ column: Int) -> Data? {
        withBytes(row, column) { $0.map { Data($0) } }
    }

    /// A `text`, `varchar`, `name` or `json` value, or any value of a text-format result.
    package func string(_ row: Int, _ column: Int) -> String? {
        withBytes(row, column) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// An `int2`, `int4` or `int8` in binary format.
    package func int64(_ row: Int, _ column: Int) -> Int64? {
        withBytes(row, column) { bytes -> Int64? in
            guard let bytes else { return nil }
            switch bytes.count {
            case 2: return Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self)))
            case 4: return Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self)))
            case 8: return Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
            default: return nil
            }
        }
    }

    /// A `float8` in binary format.
    package func double(_ row: Int, _ column: Int) -> Double? {
        withBytes(row, column) { bytes -> Double? in
            guard let bytes, bytes.count == 8 else { return nil }
            return Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)))
        }
    }

    /// A `bool` in binary format.
    package func bool(_ row: Int, _ column: Int) -> Bool? {
        withBytes(row, column) { bytes in bytes.flatMap { $0.first.map { $0 != 0 } } }
    }
}
