/// Bytes and code units in hexadecimal, by table look-up: what `String(format: "%02x")` and
/// `"%04X"` give, without a format string parsed and a `String` made for every byte. The
/// printers show the first bytes of every data value, and a large archive holds a million.
public enum HexText {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// Two lowercase digits per byte, no separator: `00ff7f`.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(lower[Int(byte >> 4)])
            text.append(lower[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Four uppercase digits: `00E9`, as `"%04X"` gives a 16-bit value.
    public static func uppercase(_ unit: UInt16) -> String {
        let digits = [upper[Int(unit >> 12)], upper[Int(unit >> 8 & 0x0F)], upper[Int(unit >> 4 & 0x0F)], upper[Int(unit & 0x0F)]]
        return String(decoding: digits, as: UTF8.self)
    }
}
