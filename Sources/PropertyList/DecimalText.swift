/// Decimal numbers read without `strtod`, when one floating-point operation gives the exact
/// answer: a migration reads back millions of reals it has just written.
package enum DecimalText {
    /// Powers of ten that doubles hold exactly: 10^0 through 10^22.
    static let powers: [Double] = (0...22).map { e in (0..<e).reduce(1.0) { r, _ in r * 10 } }

    /// The double `Double(String)` reads from `text` (`-`? digits (`.` digits)? ((`e`|`E`)
    /// (`+`|`-`)? digits)?), when Clinger's fast path computes it: the significant digits
    /// make an integer below 2^53, which a double holds exactly, and the power of ten is within
    /// 10^±22, which a double also holds exactly, so one multiplication or division, rounded
    /// once, gives the correctly rounded value `strtod` gives. Nil for anything else (more
    /// digits, a larger exponent, other text): the caller reads it the ordinary way.
    package static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = text.count
        var negative = false
        if i < n, text[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawDigit = false
        // Integer part.
        while i < n, text[i] &- UInt8(ascii: "0") < 10 {
            sawDigit = true
            let d = UInt64(text[i] &- UInt8(ascii: "0"))
            if mantissa != 0 || d != 0 {
                guard digits < 19 else { return nil }
                mantissa = mantissa * 10 + d
                digits += 1
            }
            i += 1
        }
        guard sawDigit else { return nil }
        // Fraction: each digit kept scales by a tenth.
        if i < n, text[i] == UInt8(ascii: ".") {
            i += 1
            var sawFraction = false
            while i < n, text[i] &- UInt8(ascii: "0") < 10 {
                sawFraction = true
                let d = UInt64(text[i] &- UInt8(ascii: "0"))
                if mantissa != 0 || d != 0 {
                    guard digits < 19 else { return nil }
                    mantissa = mantissa * 10 + d
                    digits += 1
                }
                scale -= 1
                i += 1
            }
            guard sawFraction else { return nil }
        }
        if i < n, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if i < n, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") {
                exponentNegative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            var exponent = 0
            var sawExponent = false
            while i < n, text[i] &- UInt8(ascii: "0") < 10 {
                sawExponent = true
                exponent = exponent * 10 + Int(text[i] &- UInt8(ascii: "0"))
                guard exponent < 10_000 else { return nil }
                i += 1
            }
            guard sawExponent else { return nil }
            scale += exponentNegative ? -exponent : exponent
        }
        guard i == n, mantissa <= 1 << 53 else { return nil }
        let value: Double
        if mantissa == 0 {
            value = 0
        } else if scale >= 0 {
            guard scale <= 22 else { return nil }
            value = Double(mantissa) * powers[scale]
        } else {
            guard scale >= -22 else { return nil }
            value = Double(mantissa) / powers[-scale]
        }
        return negative ? -value : value
    }
}
