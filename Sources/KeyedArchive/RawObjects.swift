import PropertyList

/// The elements of `$objects` as property-list values, however the archive was read: as a
/// `PropertyListValue` array, or as a flat table whose dictionaries are rebuilt, and whose
/// scalars are read from the file, when asked for (content decoders rarely look inside another
/// object's dictionary).
///
/// A class, so that handing it to each object's content decoder costs one reference.
final class RawObjects {
    /// Every element, when the archive was read as a tree; empty with a flat table.
    let values: [PropertyListValue]
    /// Per element, with a flat table: its kind. Empty otherwise.
    let kinds: [FlatElementKind]
    let flat: FlatObjectTable?
    let count: Int

    init(_ values: [PropertyListValue]) {
        self.values = values
        kinds = []
        flat = nil
        count = values.count
    }

    init(flat: FlatObjectTable) {
        values = []
        kinds = flat.kinds
        self.flat = flat
        count = flat.count
    }

    /// Whether element `uid` is a dictionary kept flat.
    @inline(__always)
    func isFlatDictionary(_ uid: Int) -> Bool {
        !kinds.isEmpty && kinds[uid] == .dictionary
    }

    /// Element `uid`; dictionaries of a flat table are rebuilt.
    subscript(uid: Int) -> PropertyListValue {
        if let flat { return flat.value(uid) }
        return values[uid]
    }

    /// The value of a flat table's `.scalar` or `.value` entry.
    func value(of entry: FlatEntry) -> PropertyListValue {
        flat?.value(of: entry) ?? .null
    }
}
