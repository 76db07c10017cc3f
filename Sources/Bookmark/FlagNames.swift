/// The names of the bits set in `bits`, as `table` names them, lowest named bit first, then any
/// bit the table does not name as `0x…`: what `BookmarkCreationOptions` and
/// `BookmarkPropertyFlags` show.
func flagNames(_ bits: UInt64, table: [(UInt64, String)]) -> [String] {
    var names: [String] = []
    var named: UInt64 = 0
    for (bit, name) in table where bits & bit != 0 {
        names.append(name)
        named |= bit
    }
    var rest = bits & ~named
    while rest != 0 {
        let bit = rest & (~rest &+ 1)
        names.append("0x" + String(bit, radix: 16))
        rest &= ~bit
    }
    return names
}
