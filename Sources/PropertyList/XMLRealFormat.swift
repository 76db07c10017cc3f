import Foundation

/// Reals as CF writes them in XML: `%.17g` (17 significant digits, exactly rounded, trailing
/// zeros dropped), spelled without `printf`.
///
/// Most reals are worked out exactly with 128-bit integers: a double is `m × 2^e`, and
/// `m × 10^q` shifted by `e` (or divided by `10^-q`) gives the 17 digits and the remainder
/// that rounds them, ties to even as glibc does. The rest (subnormals, and values too small or
/// too large for 128 bits) go through `vsnprintf`.
enum XMLRealFormat {
    /// 10^0 through 10^38, every power that fits in 128 bits.
    static let powersOfTen: [UInt128] = {
        var powers: [UInt128] = [1]
        for _ in 1...38 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()

    static let low17: UInt128 = 10_000_000_000_000_000
    static let high17: UInt128 = 100_000_000_000_000_000

    /// `%.17g` of a finite, non-zero `r`.
    static func append(_ r: Double, to out: inout OutputBuffer) {
        if let (digits, exponent) = digits(r) {
            appendFormatted(digits, exponent, negative: r < 0, to: &out)
            return
        }
        appendWithLibc(r, to: &out)
    }

    /// `r`'s 17 significant digits, rounded, as an integer in 10^16..<10^17, and the decimal
    /// exponent of the first; nil when 128 bits cannot hold the work.
    static func digits(_ r: Double) -> (UInt128, Int)? {
        let x = r.magnitude
        guard x.isNormal else { return nil }
        let m = UInt128(x.significandBitPattern | (1 << 52))
        let e = Int(x.exponent) - 52
        // An estimate of the decimal exponent, corrected below.
        var p = Int(log10(x).rounded(.down))
        for _ in 0..<3 {
            guard let (whole, remainder, divisor) = scaled(m, e, 16 - p) else { return nil }
            if whole < low17 {
                p -= 1
                continue
            }
            if whole >= high17 {
                p += 1
                continue
            }
            // Round to nearest, ties to even.
            var n = whole
            let twice = remainder << 1
            if twice > divisor || (twice == divisor && n & 1 == 1) { n += 1 }
            if n == high17 { return (low17, p + 1) }
            return (n, p)
        }
        return nil
    }

    /// `m × 2^e × 10^q` as a whole part and a remainder over a divisor, or nil past 128 bits.
    static func scaled(_ m: UInt128, _ e: Int, _ q: Int) -> (UInt128, UInt128, UInt128)? {
        if q >= 0 {
            // m < 2^53 and 10^22 < 2^74: the product fits.
            guard q <= 22 else { return nil }
            let product = m * powersOfTen[q]
            if e >= 0 {
                // Exact, when the shifted product fits.
                guard e < 128, product.leadingZeroBitCount > e else { return nil }
                return (product << e, 0, 1)
            }
            let s = -e
            guard s < 127 else { return nil }
            let divisor = UInt128(1) << s
            return (product >> s, product & (divisor - 1), divisor)
        }
        guard -q <= 38, e >= 0, e < 128, m.leadingZeroBitCount > e else { return nil }
        let value = m << e
        let divisor = powersOfTen[-q]
        let (whole, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return (whole, remainder, divisor)
    }

    /// `%g`'s layout with precision 17 for `digits` × 10^(`exponent` − 16): fixed notation for
    /// exponents from -4 to 16, exponential otherwise; trailing zeros and a bare point dropped.
    static func appendFormatted(_ digits: UInt128, _ exponent: Int, negative: Bool, to out: inout OutputBuffer) {
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { d in
            // Under 10^17, so 64 bits hold it.
            var n = UInt64(truncatingIfNeeded: digits)
            for i in stride(from: 16, through: 0, by: -1) {
                let (q, r) = n.quotientAndRemainder(dividingBy: 10)
                d[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: r)
                n = q
            }
            // Significant digits once trailing zeros are dropped.
            var significant = 17
            while significant > 1, d[significant - 1] == UInt8(ascii: "0") { significant -= 1 }
            out.reserve(32)
            if negative { out.appendUnchecked(UInt8(ascii: "-")) }
            if exponent >= -4 && exponent < 17 {
                if exponent >= 0 {
                    for i in 0...exponent { out.appendUnchecked(d[i]) }
                    if significant > exponent + 1 {
                        out.appendUnchecked(UInt8(ascii: "."))
                        for i in (exponent + 1)..<significant { out.appendUnchecked(d[i]) }
                    }
                } else {
                    out.appendUnchecked(UInt8(ascii: "0"))
                    out.appendUnchecked(UInt8(ascii: "."))
                    for _ in 0..<(-exponent - 1) { out.appendUnchecked(UInt8(ascii: "0")) }
                    for i in 0..<significant { out.appendUnchecked(d[i]) }
                }
            } else {
                out.appendUnchecked(d[0])
                if significant > 1 {
                    out.appendUnchecked(UInt8(ascii: "."))
                    for i in 1..<significant { out.appendUnchecked(d[i]) }
                }
                out.appendUnchecked(UInt8(ascii: "e"))
                out.appendUnchecked(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                let magnitude = exponent.magnitude
                if magnitude < 10 { out.appendUnchecked(UInt8(ascii: "0")) }
                out.appendDecimalUnchecked(UInt64(magnitude))
            }
        }
    }

    /// `%.17g` by the C library, its decimal point made a `.` whatever the locale.
    static func appendWithLibc(_ r: Double, to out: inout OutputBuffer) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 48) { buffer in
            guard let base = buffer.baseAddress else { return }
            let length = Int(withVaList([r]) { vsnprintf(base, 48, "%.17g", $0) })
            guard length > 0 else { return }
            var previousWasPoint = false
            for i in 0..<min(length, 47) {
                let b = UInt8(bitPattern: base[i])
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"):
                    out.append(b)
                    previousWasPoint = false
                default:
                    if !previousWasPoint { out.append(UInt8(ascii: ".")) }
                    previousWasPoint = true
                }
            }
        }
    }
}
