extension UnsafeRawBufferPointer {
    /// The UTF-8 length of the `units` big-endian UTF-16 code units at `body` (a binary
    /// property list's string), as `String(validating:as: UTF16.self)` reads them; nil at a lone
    /// surrogate. The flat keyed-archive scan and the compact archive's check both weigh strings
    /// so; the caller has checked that the units are there.
    @inline(__always)
    package func utf8LengthOfBigEndianUTF16(at body: Int, units: Int) -> Int? {
        var utf8 = 0
        var at = body
        let stop = body + 2 * units
        while at < stop {
            let unit = UInt16(self[at]) << 8 | UInt16(self[at + 1])
            at += 2
            if unit < 0x80 {
                utf8 += 1
            } else if unit < 0x800 {
                utf8 += 2
            } else if unit & 0xF800 != 0xD800 {
                utf8 += 3
            } else if unit < 0xDC00, at < stop, self[at] & 0xFC == 0xDC {
                // A high surrogate and the low one after it: one scalar of four bytes.
                at += 2
                utf8 += 4
            } else {
                return nil
            }
        }
        return utf8
    }
}
