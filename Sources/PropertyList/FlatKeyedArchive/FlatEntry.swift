/// One key and value of a dictionary in `$objects`. A plain 16-byte value, so that the table
/// of all entries is one allocation that needs no per-element work to copy or free.
package struct FlatEntry: Sendable {
    package enum Kind: UInt8, Sendable {
        /// A UID, in `payload`.
        case uid
        /// An array holding only UIDs, as `NS.objects` and `NS.keys` do, or an empty array:
        /// `payload` packs its start in `FlatObjectTable.uids` (high 32 bits) and its count
        /// (low 32 bits).
        case uids
        /// A scalar (a number, string, data, date, bool or null): `payload` is its object index
        /// in the file, read from there when asked for (`FlatObjectTable.value(of:)`).
        case scalar
        /// A collection that is not a UID array: `FlatObjectTable.others[payload]`.
        case value
    }

    /// The index of the key in `FlatObjectTable.keys`.
    package var key: Int32
    package var kind: Kind
    package var payload: UInt64

    /// For `.uids`: where its elements are in `FlatObjectTable.uids`.
    package var uidRange: Range<Int> {
        let start = Int(payload >> 32)
        return start..<start + Int(payload & 0xFFFF_FFFF)
    }
}
