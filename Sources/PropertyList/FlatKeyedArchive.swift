/// A binary keyed archive's property list, read with `$objects` kept flat.
///
/// `KeyedArchive(data:)` reads binary archives through this instead of a `PropertyListValue`
/// tree: every object of `$objects` that is a dictionary (almost all of them) is kept as a run
/// of entries in one shared array, its UIDs and UID arrays unboxed, so that decoding an archive
/// of a million objects allocates a few large arrays instead of millions of small ones.
///
/// The scan reads exactly what `BinaryPropertyListReader` reads, with the same checks and
/// the same limits, so it succeeds only where the reader succeeds and its values are the
/// values the reader gives. Whatever it does not handle (a top level that is not a dictionary,
/// `$objects` that is not an array, a collection or large scalar referenced twice) makes it
/// return nil, and the caller reads the file the ordinary way, which also reports any error.
package struct FlatKeyedArchive: Sendable {
    /// The top-level dictionary's keys, as read.
    package var topKeys: [PropertyListValue]
    /// The top-level dictionary's values, as read, except at `objectsEntry`: an empty array
    /// stands in for `$objects`, which is `objects`.
    package var topValues: [PropertyListValue]
    /// The position of the `$objects` entry in `topKeys`: its last occurrence.
    package var objectsEntry: Int
    package var objects: FlatObjectTable
}
