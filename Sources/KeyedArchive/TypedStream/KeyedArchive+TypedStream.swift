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
    ///
    /// The objects are decoded straight from the stream (`TypedStreamObjectBuilder`) where that
    /// gives the same archive, and through the keyed form otherwise.
    public init(typedStream stream: TypedStream, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) {
        var builder = TypedStreamObjectBuilder(stream: stream, options: options)
        if let archive = builder.archive() {
            self = archive
            return
        }
        try self.init(keyedFormOf: stream, options: options)
    }

    /// `init(typedStream:options:)` through the keyed form, made a property list and decoded:
    /// the path every stream can take, against which the direct one is tested.
    public init(keyedFormOf stream: TypedStream, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) {
        var archiver = TypedStreamKeyedArchiver(stream: stream)
        let plist = archiver.archive()
        try self.init(plist: plist, options: options)
        // The plist is made again when asked for: most callers never look at it.
        plistSource = PlistSource(keyedFormOf: stream)
        self.archiver = "NSArchiver"
        self.version = stream.header.systemVersion
        self.typedStream = stream
    }

    /// Each class name with how many objects have it, as the source holds them: for a
    /// typedstream, the stream's own objects (not the run tables and name strings its keyed
    /// form adds); for a keyed archive, `classCounts`.
    public var sourceClassCounts: [(name: String, count: Int)] {
        guard let typedStream else { return classCounts }
        return typedStream.classCounts.map { entry in
            (SwiftClassName.demangle(entry.name) ?? entry.name, entry.count)
        }
    }

    /// The objects of a typedstream of Foundation's value classes, read straight from its bytes
    /// (`TypedStreamDirectReader`) for writing their JSON without decoding them. Nil for any
    /// other input, and wherever that reader gives up.
    package static func typedStreamValueTable(_ data: Data, options: KeyedArchiveReadOptions = .default) -> TypedStreamValueTable? {
        TypedStreamDirectReader.table(data, options: options)
    }
}
