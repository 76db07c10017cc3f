/// The elements of `$objects`: dictionaries as runs of `entries`, anything else as a value.
package struct FlatObjectTable: Sendable {
    /// Per object: its value, or `.null` standing in for a dictionary.
    package var values: [PropertyListValue]
    /// Per object: whether it is a dictionary, whose entries are
    /// `entries[entryStart[i]..<entryStart[i + 1]]`.
    package var isDictionary: [Bool]
    /// `values.count + 1` offsets into `entries`.
    package var entryStart: [Int32]
    package var entries: [FlatEntry]
    /// The distinct dictionary keys, which entries name by index.
    package var keys: [PropertyListValue]
    /// The elements of `.uids` entries. (A UID of 2^32 or more, which no `$objects` can hold,
    /// sends the archive to the ordinary reader.)
    package var uids: [UInt32]
    /// The values of `.value` entries.
    package var others: [PropertyListValue]

    package var count: Int { values.count }

    /// Object `index` as the reader gives it: dictionaries are rebuilt from their entries.
    package func value(_ index: Int) -> PropertyListValue {
        guard isDictionary[index] else { return values[index] }
        let range = Int(entryStart[index])..<Int(entryStart[index + 1])
        var keys: [PropertyListValue] = []
        var values: [PropertyListValue] = []
        keys.reserveCapacity(range.count)
        values.reserveCapacity(range.count)
        for i in range {
            keys.append(self.keys[Int(entries[i].key)])
            values.append(value(of: entries[i]))
        }
        return .dictionary(PropertyListDictionary(keys: keys, values: values))
    }

    /// An entry's value as the reader gives it.
    package func value(of entry: FlatEntry) -> PropertyListValue {
        switch entry.kind {
        case .uid: .uid(entry.payload)
        case .uids: .array(uids[entry.uidRange].map { .uid(UInt64($0)) })
        case .value: others[Int(entry.payload)]
        }
    }
}
