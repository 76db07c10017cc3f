import Foundation

extension BinaryPropertyListReader {
    /// Reads a binary keyed archive with `$objects` kept flat, or returns nil when the reader
    /// itself must read it (see `FlatKeyedArchive`). Without `keepingValues`, only the kinds of
    /// the elements that are not dictionaries are kept (see `FlatObjectTable`).
    package func readFlatKeyedArchive(_ data: Data, keepingValues: Bool = true) -> FlatKeyedArchive? {
        guard data.count <= options.maximumInputSize, data.starts(with: "bplist".utf8) else { return nil }
        return data.withUnsafeBytes { raw -> FlatKeyedArchive? in
            guard var parser = try? BinaryPropertyListParser(raw, options: options, sharing: .refused) else { return nil }
            return try? parser.scanKeyedArchive(data, keepingValues: keepingValues)
        }
    }
}
