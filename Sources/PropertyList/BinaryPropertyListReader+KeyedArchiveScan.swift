import Foundation

extension BinaryPropertyListReader {
    /// Reads a binary keyed archive with `$objects` kept flat, or returns nil when the reader
    /// itself must read it (see `FlatKeyedArchive`).
    package func readFlatKeyedArchive(_ data: Data) -> FlatKeyedArchive? {
        guard data.count <= options.maximumInputSize, data.starts(with: "bplist".utf8) else { return nil }
        return data.withUnsafeBytes { raw -> FlatKeyedArchive? in
            guard var parser = try? BinaryPropertyListParser(raw, options: options, sharing: .refused) else { return nil }
            return try? parser.scanKeyedArchive()
        }
    }
}
