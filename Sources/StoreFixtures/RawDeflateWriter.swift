import Foundation
internal import CZlib

/// Raw DEFLATE (RFC 1951) compression through the system zlib, as Core Data compresses a
/// store's `Z_MODELCACHE`: for fixture stores only (Archivist itself only inflates).
enum RawDeflateWriter {
    struct Failure: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "zlib deflate failed with status \(status)" }
    }

    static func deflate(_ input: Data, level: Int32 = 9) throws -> Data {
        var stream = z_stream()
        guard archivist_deflate_init_raw(&stream, level) == Z_OK else { throw Failure(status: -1) }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        let status: Int32 = input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(raw.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(status: status) }
        return Data(output.prefix(Int(stream.total_out)))
    }
}

/// Raw DEFLATE for tests that need a hostile model cache (an inflate bomb).
public enum RawDeflateFixture {
    public static func deflate(_ data: Data) throws -> Data { try RawDeflateWriter.deflate(data) }
}
