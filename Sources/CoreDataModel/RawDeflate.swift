import Foundation
internal import CZlib

/// Raw DEFLATE (RFC 1951, no zlib header or checksum), as Core Data compresses `Z_MODELCACHE`,
/// through the system zlib.
enum RawDeflate {
    /// Inflates `input`, refusing to produce more than `limit` bytes.
    ///
    /// - Throws: `ModelError` `.malformed` for data that is not raw DEFLATE or ends early,
    ///   `.limitExceeded` when the output would pass `limit`.
    static func inflate(_ input: Data, limit: Int) throws(ModelError) -> Data {
        var stream = z_stream()
        guard archivist_inflate_init_raw(&stream) == Z_OK else {
            throw ModelError(.malformed, "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        guard input.count <= Int(UInt32.max) else { throw ModelError(.limitExceeded, "compressed data over 4 GB") }
        var output = Data()
        let chunk = 64 << 10
        var buffer = [UInt8](repeating: 0, count: chunk)
        var status: Int32 = Z_OK
        var failure: ModelError?
        input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(raw.count)
            repeat {
                let produced: Int = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(chunk)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return chunk - Int(stream.avail_out)
                }
                if status == Z_BUF_ERROR || (status == Z_OK && produced == 0 && stream.avail_in == 0) {
                    failure = ModelError(.malformed, "compressed data ends early, after \(output.count + produced) bytes of output",
                                         location: "compressed byte \(Int(stream.total_in))")
                    return
                }
                if status != Z_OK && status != Z_STREAM_END {
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    failure = ModelError(.malformed, "not raw DEFLATE data (\(reason))", location: "compressed byte \(Int(stream.total_in))")
                    return
                }
                guard output.count + produced <= limit else {
                    failure = ModelError(.limitExceeded, "inflates to more than the limit of \(limit) bytes (the inflated model limit)")
                    return
                }
                output.append(contentsOf: buffer[0..<produced])
            } while status != Z_STREAM_END
        }
        if let failure { throw failure }
        return output
    }
}
