import Foundation

extension BinaryPropertyListReader {
    /// Reads only the value at `keyPath`: the trailer, the objects on the path and the value's
    /// own objects. Nothing else of the file is read or checked, so corruption elsewhere goes
    /// unnoticed (read the whole file to validate it).
    ///
    /// - Returns: the value, or nil when a component names nothing.
    /// - Throws: `PropertyListError` for a broken object on the way or in the value, or a
    ///   limit reached.
    public func read(_ data: Data, at keyPath: PropertyListKeyPath) throws(PropertyListError) -> PropertyListValue? {
        try options.checkInputSize(data.count)
        let components = keyPath.components
        return try data.withUnsafeBytesTyped { raw throws(PropertyListError) -> PropertyListValue? in
            // Shared objects are not memoized: in the rare file whose value shares a
            // collection, the lookup starts again with memoization (see `Sharing`).
            var parser = try BinaryPropertyListParser(raw, options: options, sharing: .refused, checksOffsetsOnUse: true)
            guard let index = try parser.lookUp(components) else { return nil }
            do throws(PropertyListError) {
                return try parser.object(index, depth: components.count)
            } catch where BinaryPropertyListParser.isSharedObject(error) {
                var memoized = try BinaryPropertyListParser(raw, options: options, sharing: .memoized)
                guard let index = try memoized.lookUp(components) else { return nil }
                return try memoized.object(index, depth: components.count)
            }
        }
    }
}
