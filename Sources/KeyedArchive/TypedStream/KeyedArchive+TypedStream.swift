import Foundation
import PropertyList
import TypedStream

extension KeyedArchive {
    /// An NSArchiver typedstream as the keyed archive of the same objects: each object of a
    /// class Archivist knows with the keys its keyed coder writes, every other value under the
    /// keys NSKeyedArchiver gives unkeyed values (`$0`, `$1`…); see `TypedStreamKeyedArchiver`.
    ///
    /// `plist` is that keyed archive (what `rewrite --to keyed` writes, in Foundation's layout,
    /// through `KeyedArchiveWriter`); `typedStream` keeps the stream itself, with its classes'
    /// versions and each object's groups.
    public init(typedStream stream: TypedStream, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) {
        var archiver = TypedStreamKeyedArchiver(stream: stream)
        let plist = archiver.archive()
        try self.init(plist: plist, options: options)
        self.archiver = "NSArchiver"
        self.version = stream.header.systemVersion
        self.typedStream = stream
    }
}
