import PropertyList

/// The elements of `$objects` as property-list values, however the archive was read: as a
/// `PropertyListValue` array, or as a flat table whose dictionaries are rebuilt when asked for
/// (content decoders rarely look inside another object's dictionary).
///
/// A class, so that handing it to each object's content decoder costs one reference.
final class RawObjects {
    /// Every element, or with a flat table, every element that is not a dictionary.
    let values: [PropertyListValue]
    /// Per element, with a flat table: whether it is a dictionary kept as entries. Empty otherwise.
    let isDictionary: [Bool]
    /// With a flat table, the values of its `.value` entries.
    let others: [PropertyListValue]
    let flat: FlatObjectTable?

    init(_ values: [PropertyListValue]) {
        self.values = values
        isDictionary = []
        others = []
        flat = nil
    }

    init(flat: FlatObjectTable) {
        values = flat.values
        isDictionary = flat.isDictionary
        others = flat.others
        self.flat = flat
    }

    var count: Int { values.count }

    /// Whether element `uid` is a dictionary kept flat, whose value `values` does not hold.
    @inline(__always)
    func isFlatDictionary(_ uid: Int) -> Bool {
        !isDictionary.isEmpty && isDictionary[uid]
    }

    subscript(uid: Int) -> PropertyListValue {
        if isFlatDictionary(uid), let flat { return flat.value(uid) }
        return values[uid]
    }
}
