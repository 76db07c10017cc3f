import Foundation

extension UUID {
    /// `uuidString` (`71DC068E-3420-45FF-919E-3A267D55EC22`), spelled by table lookup: Foundation
    /// formats each UUID through `snprintf`, which costs more than decoding the whole object.
    package var uppercaseText: String {
        let hex: StaticString = "0123456789ABCDEF"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                hex.withUTF8Buffer { digits in
                    var at = 0
                    for (i, byte) in bytes.enumerated() {
                        if i == 4 || i == 6 || i == 8 || i == 10 {
                            out[at] = UInt8(ascii: "-")
                            at += 1
                        }
                        out[at] = digits[Int(byte >> 4)]
                        out[at + 1] = digits[Int(byte & 0x0F)]
                        at += 2
                    }
                    return at
                }
            }
        }
    }
}
