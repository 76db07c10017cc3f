/// What a swept item is: the `kind` of a record.
public enum SweepItemKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// A property list that is not a keyed archive, in any of the four formats.
    case plist
    /// An NSKeyedArchiver archive.
    case keyedArchive
    /// An NSArchiver typedstream (read as the keyed archive of the same objects; refused by
    /// every secure unarchiver).
    case typedStream
    /// A compiled nib (NIBArchive), read as the keyed archive of the same objects; refused, as
    /// no nib is a secure-coding blob. Its record lists its classes.
    case nibArchive
    /// URL bookmark data: a bookmark file, or bookmark data inside another document (a
    /// recent-items list's item, a login item, a Safari download). Its record's `target` is
    /// the path it points to; `summary` adds the volume.
    case bookmark
    /// An SQLite database with Core Data's `Z_PRIMARYKEY` and `Z_METADATA` tables.
    case coreDataStore
    /// Any other SQLite database.
    case sqlite
    /// Something that claims a format (a `bplist` or `<plist` head, an SQLite header, a zip or
    /// tar) but does not read as it, or an item over a limit: see the record's `error`.
    case unreadable

    public static func < (a: Self, b: Self) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}
