import PropertyList

/// The elements of `$objects` as property-list values, however the archive was read: as a
/// `PropertyListValue` array, or as a flat table whose dictionaries are rebuilt, and whose
/// scalars are read from the file when the table was read without them, when asked for
/// (content decoders rarely look inside another object's dictionary).
///
/// A class, so that handing it to each object's content decoder costs one reference; the
/// table's parts are its own constants, so that reading one copies nothing.
final class RawObjects {
    /// Every element: as read, or with a flat table read with values, `.null` for each
    /// dictionary. Empty for a flat table read without values.
    let values: [PropertyListValue]
    /// Per element, with a flat table: its kind. Empty otherwise.
    let kinds: [FlatElementKind]
    let count: Int
    let entryStart: [Int32]
    let entries: [FlatEntry]
    let keys: [PropertyListValue]
    let uids: [UInt32]
    let others: [PropertyListValue]
    let scalars: FlatScalarReader?
    /// With a small archive read in place (`SmallArchiveReader`): the archive, whose elements
    /// are read from its bytes when asked for. Valid only while its objects are decoded.
    let compact: CompactKeyedArchive?

    convenience init(_ values: [PropertyListValue]) {
        self.init(values: values, count: values.count, compact: nil)
    }

    convenience init(compact: CompactKeyedArchive) {
        self.init(values: [], count: compact.elementCount, compact: compact)
    }

    /// Elements that are no flat table: values as read, or a small archive read in place.
    private init(values: [PropertyListValue], count: Int, compact: CompactKeyedArchive?) {
        self.values = values
        kinds = []
        self.count = count
        entryStart = []
        entries = []
        keys = []
        uids = []
        others = []
        scalars = nil
        self.compact = compact
    }

    init(flat: FlatObjectTable) {
        values = flat.values
        kinds = flat.kinds
        count = flat.count
        entryStart = flat.entryStart
        entries = flat.entries
        keys = flat.keys
        uids = flat.uids
        others = flat.others
        scalars = flat.scalars
        compact = nil
    }

    /// Whether element `uid` is a dictionary kept flat.
    @inline(__always)
    func isFlatDictionary(_ uid: Int) -> Bool {
        !kinds.isEmpty && kinds[uid] == .dictionary
    }

    /// Element `uid`; dictionaries of a flat table are rebuilt.
    subscript(uid: Int) -> PropertyListValue {
        if let compact { return compact.element(uid) }
        if isFlatDictionary(uid) { return dictionary(uid) }
        if !values.isEmpty { return values[uid] }
        return scalars?.element(uid) ?? .null
    }

    /// A flat dictionary element, rebuilt from its entries.
    func dictionary(_ uid: Int) -> PropertyListValue {
        FlatObjectTable.dictionary(uid, entryStart: entryStart, entries: entries, keys: keys, value: value(of:))
    }

    /// A flat entry's value as the reader gives it.
    func value(of entry: FlatEntry) -> PropertyListValue {
        switch entry.kind {
        case .uid: .uid(entry.payload)
        case .uids: .array(uids[entry.uidRange].map { .uid(UInt64($0)) })
        case .scalar: scalars?.object(Int(truncatingIfNeeded: entry.payload)) ?? .null
        case .value: others[Int(entry.payload)]
        }
    }
}
