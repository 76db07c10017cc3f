import Foundation

/// Reads binary property lists (`bplist00`), as Apple's CFBinaryPList.c defines them.
///
/// The trailer and the whole offset table are validated before any object is read. Objects are
/// memoized by index, so a shared object is parsed once and a file of shared references cannot
/// make the reader do exponential work; the expanded size of the tree is still counted against
/// the limits, because anything that walks it later would pay for every copy.
public struct BinaryPropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Reads a binary property list.
    ///
    /// - Throws: `PropertyListError` with the byte offset or object index of the problem.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        try options.checkInputSize(data.count)
        return try data.withUnsafeBytesTyped { raw throws(PropertyListError) in
            // First without counting references, which takes a pass over every collection:
            // CF never shares a collection or a large scalar between places, and a file
            // that does stops this read at the second place and is read again memoizing
            // them. Until then both read the same objects in the same order, so an error is
            // the same either way.
            do throws(PropertyListError) {
                var parser = try BinaryPropertyListParser(raw, options: options, sharing: .refused)
                return try parser.parseTop()
            } catch where BinaryPropertyListParser.isSharedObject(error) {
                var parser = try BinaryPropertyListParser(raw, options: options)
                return try parser.parseTop()
            }
        }
    }

    /// Checks a binary property list as `read` does, with the same errors and limits, without
    /// keeping the values: nothing of the tree is built beyond the scalars met on the way.
    ///
    /// - Throws: the `PropertyListError` that `read` would throw.
    public func validate(_ data: Data) throws(PropertyListError) {
        try options.checkInputSize(data.count)
        // First a walk that stops at anything unusual without saying what (a shared collection,
        // which it would read again, included) and allocates nothing; then, only if it
        // stopped, the reader's own walk, which finds the error.
        let checked = data.withUnsafeBytes { raw -> Bool in
            do throws(PropertyListError) {
                var parser = try BinaryPropertyListParser(raw, options: options, sharing: .refused)
                guard parser.isPlainFile else { return false }
                var recent = RecentRing<BinaryPropertyListParser.KnownKeys<Void>>()
                try parser.check(parser.trailer.topObject, depth: 0, recent: &recent)
                return true
            } catch {
                return false
            }
        }
        if checked { return }
        try data.withUnsafeBytesTyped { raw throws(PropertyListError) in
            var parser = try BinaryPropertyListParser(raw, options: options)
            parser.discardsCollections = true
            _ = try parser.parseTop()
        }
    }
}

extension PropertyListError {
    /// The same error, one level further down the key path.
    func inside(_ component: String) -> PropertyListError {
        var e = self
        e.keyPath.insert(component, at: 0)
        return e
    }
}
