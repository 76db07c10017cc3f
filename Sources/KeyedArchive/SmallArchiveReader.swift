import Foundation
import PropertyList

/// Reads small binary keyed archives one after another, as a scan reads a column's values,
/// keeping between them what repeats: its working buffers, the class descriptions met, and the
/// last class index made.
///
/// Each archive is checked in one pass over its bytes (`CompactKeyedArchive`) and walked from
/// `$top` in place, with exactly the checks `KeyedArchive(data:)` makes and the walk it makes,
/// so the result is the one `KeyedArchiveClassIndex(data:)` gives. Archives of another layout,
/// or that the checks refuse, give nil: the caller reads them the ordinary way, which says what
/// is wrong. A column of a million archived colors then costs no allocation per row: the class
/// descriptions are the ones of the rows before, and so is the index when the classes and the
/// layout repeat.
///
/// Not for sharing between threads: each thread reads with a reader of its own.
public final class SmallArchiveReader {
    /// Unchecked: a reader is used by one thread at a time, one call at a time, and a dynamic
    /// exclusivity check on every value read is a measurable part of reading a small archive.
    @exclusivity(unchecked) var reading = SmallArchiveReading()

    public init() {}

    /// The class index of a binary archive, as `KeyedArchiveClassIndex(data:options:)` reads
    /// it; nil when the archive is not small or not in the common layout, or does not decode
    /// (then `KeyedArchiveClassIndex(data:options:)` says what it is).
    public func classIndex(_ data: Data, options: KeyedArchiveReadOptions = .default) -> KeyedArchiveClassIndex? {
        reading.classIndex(data, options: options)
    }

    /// A binary archive decoded as `KeyedArchive(data:options:)` decodes it; nil when the
    /// archive is not small or not in the common layout, or does not decode (then
    /// `KeyedArchive(data:options:)` says what it is).
    public func archive(_ data: Data, options: KeyedArchiveReadOptions = .default) -> KeyedArchive? {
        reading.archive(data, options: options)
    }
}
