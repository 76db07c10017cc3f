import Foundation

/// Reals as CF writes them in XML: `%.17g` (17 significant digits, exactly rounded, trailing
/// zeros dropped), spelled without `printf`.
///
/// Reals from 2^-126 (about 1.2 × 10^-38) to 2^128 are worked out exactly with integers: a double is
/// `m × 2^e`, and its 17 digits are `m × 2^e × 10^q` for the `q` that puts them in
/// 10^16..<10^17, rounded to nearest with ties to even, as glibc rounds. Below 10^17 that is
/// `m × 5^q` shifted right by `-(q + e)` bits (in 128 bits for `q` up to 27, that is down to
/// about 10^-11; in 192 bits for `q` up to 54); above, `m × 2^e` divided by `10^-q` in 128
/// bits. The rest (subnormals, and reals past those bounds) go through `vsnprintf`.
enum XMLRealFormat {
    /// 10^0 through 10^38, every power that fits in 128 bits.
    static let powersOfTen: [UInt128] = {
        var powers: [UInt128] = [1]
        for _ in 1...38 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()

    /// 5^0 through 5^27, every power that fits in 64 bits (a literal, so that it needs no
    /// initialization when it is read).
    static let powersOfFive: [UInt64] = [
        1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625, 1220703125,
        6103515625, 30517578125, 152587890625, 762939453125, 3814697265625, 19073486328125, 95367431640625,
        476837158203125, 2384185791015625, 11920928955078125, 59604644775390625, 298023223876953125,
        1490116119384765625, 7450580596923828125,
    ]

    static let low17: UInt64 = 10_000_000_000_000_000
    static let high17: UInt64 = 100_000_000_000_000_000

    /// `%.17g` of a finite, non-zero `r`.
    static func append(_ r: Double, to out: inout OutputBuffer) {
        if let (digits, exponent) = digits(r) {
            appendFormatted(digits, exponent, negative: r < 0, to: &out)
            return
        }
        appendWithLibc(r, to: &out)
    }

    /// What is left below the whole part of a scaled real, as a fraction of one.
    enum Rest {
        case zero, belowHalf, half, aboveHalf
    }

    /// `r`'s 17 significant digits, rounded, as an integer in 10^16..<10^17, and the decimal
    /// exponent of the first; nil when the integers here cannot hold the work.
    static func digits(_ r: Double) -> (UInt64, Int)? {
        // The fields of the bits, read straight (`exponent` is a call that also handles
        // subnormals and infinities, which are refused here).
        let bits = r.bitPattern
        let biased = Int((bits >> 52) & 0x7FF)
        guard biased != 0, biased != 0x7FF else { return nil }
        let m = (bits & ((1 << 52) - 1)) | (1 << 52)
        let exponent = biased - 1023
        let e = exponent - 52
        // floor(log10(x)) is floor(exponent × log10(2)) or one more (the multiplier is
        // log10(2) × 2^18, exact enough for every double's exponent): scaled by 10^(16 - p),
        // the real has 17 digits or 18.
        var p = (exponent * 78913) >> 18
        guard var (n, rest) = scaled(m, e, 16 - p) else { return nil }
        if n >= high17 {
            // 18 digits: the last one joins what is left.
            let last = n % 10
            n /= 10
            p += 1
            switch last {
            case 0: rest = rest == .zero ? .zero : .belowHalf
            case 1...4: rest = .belowHalf
            case 5: rest = rest == .zero ? .half : .aboveHalf
            default: rest = .aboveHalf
            }
        }
        // Round to nearest, ties to even.
        if rest == .aboveHalf || (rest == .half && n & 1 == 1) { n += 1 }
        if n == high17 { return (low17, p + 1) }
        return (n, p)
    }

    /// The whole part of `m × 2^e × 10^q` and what is left; nil past what the integers here
    /// hold, or when the whole part takes more than 64 bits.
    @inline(__always)
    static func scaled(_ m: UInt64, _ e: Int, _ q: Int) -> (UInt64, Rest)? {
        if q >= 0 {
            // m × 10^q × 2^e = m × 5^q × 2^(q + e).
            let shift = -(q + e)
            if q <= 27 {
                // At most 53 + 63 bits.
                let product = m.multipliedFullWidth(by: powersOfFive[q])
                return shiftedRight(UInt128(product.high) << 64 | UInt128(product.low), by: shift, sticky: false)
            }
            guard q <= 54 else { return nil }
            // m × 5^27 × 5^(q - 27), in three words.
            let first = m.multipliedFullWidth(by: powersOfFive[27])
            let second = powersOfFive[q - 27]
            let low = first.low.multipliedFullWidth(by: second)
            let high = first.high.multipliedFullWidth(by: second)
            let (middle, carry) = low.high.addingReportingOverflow(high.low)
            let top = high.high &+ (carry ? 1 : 0)
            if top == 0 {
                return shiftedRight(UInt128(middle) << 64 | UInt128(low.low), by: shift, sticky: false)
            }
            // With the top word in use, the whole part fits in 64 bits only when more than the
            // low word is shifted out.
            guard shift > 64 else { return nil }
            return shiftedRight(UInt128(top) << 64 | UInt128(middle), by: shift - 64, sticky: low.low != 0)
        }
        // m × 2^e ≥ 10^17 is a whole number: divided by 10^-q.
        guard -q <= 38, e >= 0, e <= 75 else { return nil }
        let value = UInt128(m) << e
        let divisor = powersOfTen[-q]
        let (whole, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        guard whole >> 64 == 0 else { return nil }
        guard remainder != 0 else { return (whole.low64, .zero) }
        // remainder < divisor ≤ 10^38 < 2^127: doubling it cannot overflow.
        let twice = remainder << 1
        return (whole.low64, twice > divisor ? .aboveHalf : (twice == divisor ? .half : .belowHalf))
    }

    /// `value >> shift` (a left shift for a negative `shift`) and what is shifted out, followed
    /// by lower bits that are all zero or not (`sticky`); nil when the result takes more than
    /// 64 bits.
    @inline(__always)
    static func shiftedRight(_ value: UInt128, by shift: Int, sticky: Bool) -> (UInt64, Rest)? {
        if shift <= 0 {
            // Exact: nothing is shifted out (and `sticky` is only given with a right shift).
            guard shift > -64, value >> (64 + shift) == 0 else { return nil }
            return ((value << -shift).low64, .zero)
        }
        guard shift < 128 else { return nil }
        let whole = value >> shift
        guard whole >> 64 == 0 else { return nil }
        let rest = value & ((1 << shift) - 1)
        let half: UInt128 = 1 << (shift - 1)
        if rest < half { return (whole.low64, rest == 0 && !sticky ? .zero : .belowHalf) }
        return (whole.low64, rest > half || sticky ? .aboveHalf : .half)
    }

    /// The eight decimal digits of `v` (< 10^8), zero-padded, as ASCII in memory order (first
    /// digit in the lowest byte): split into halves, quarters and digits in the lanes of one
    /// word, with multiplications by reciprocals instead of divisions.
    @inline(__always)
    static func eightDigits(_ v: UInt32) -> UInt64 {
        let high = v / 10_000, low = v % 10_000
        // Two 32-bit lanes of four digits each, the first in the low lane.
        var x = UInt64(high) | UInt64(low) << 32
        // x / 100 for each lane below 10^4.
        let hundreds = (x &* 10486) >> 20 & 0x0000_007F_0000_007F
        x = hundreds | (x &- hundreds &* 100) << 16
        // Four 16-bit lanes of two digits; x / 10 for each lane below 100.
        let tens = (x &* 103) >> 10 & 0x000F_000F_000F_000F
        x = tens | (x &- tens &* 10) << 8
        return x | 0x3030_3030_3030_3030
    }

    /// `%g`'s layout with precision 17 for `digits` × 10^(`exponent` − 16): fixed notation for
    /// exponents from -4 to 16, exponential otherwise; trailing zeros and a bare point dropped.
    static func appendFormatted(_ digits: UInt64, _ exponent: Int, negative: Bool, to out: inout OutputBuffer) {
        // The 17 digits as text, in words: one digit, eight, eight, and room to read past them.
        let first = digits / 10_000_000_000_000_000
        let rest = digits - first * 10_000_000_000_000_000
        let middle = eightDigits(UInt32(truncatingIfNeeded: rest / 100_000_000))
        let last = eightDigits(UInt32(truncatingIfNeeded: rest % 100_000_000))
        var text: (UInt64, UInt64, UInt64, UInt64) = (0x30 | UInt64(first) | middle << 8, middle >> 56 | last << 8, last >> 56, 0)
        // Significant digits once trailing zeros are dropped: zero bytes of `x ^ "00000000"`
        // at the top of the last word are zeros at the end of the text.
        var significant = 17
        let lastZeros = (last ^ 0x3030_3030_3030_3030).leadingZeroBitCount / 8
        significant -= lastZeros
        if lastZeros == 8 { significant -= min((middle ^ 0x3030_3030_3030_3030).leadingZeroBitCount / 8, 8) }
        // At most: sign, "0.000", 17 digits, or a digit, point, 16 digits, "e+308"; the word
        // stores below may write past the end into this room, which the count then leaves.
        out.reserve(48)
        withUnsafeBytes(of: &text) { d in
            let start = UnsafeMutableRawPointer(out.base + out.count)
            var at = start
            if negative {
                at.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
                at += 1
            }
            @inline(__always) func copy(_ from: Int, _ count: Int, to target: UnsafeMutableRawPointer) {
                // Up to 24 bytes, in three word moves.
                target.storeBytes(of: d.loadUnaligned(fromByteOffset: from, as: UInt64.self), as: UInt64.self)
                if count > 8 { target.storeBytes(of: d.loadUnaligned(fromByteOffset: from + 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self) }
                if count > 16 { target.storeBytes(of: d.loadUnaligned(fromByteOffset: from + 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self) }
            }
            if exponent >= -4 && exponent < 17 {
                if exponent >= 0 {
                    copy(0, exponent + 1, to: at)
                    at += exponent + 1
                    if significant > exponent + 1 {
                        at.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
                        copy(exponent + 1, significant - exponent - 1, to: at + 1)
                        at += significant - exponent
                    }
                } else {
                    // "0.", then -exponent - 1 zeros.
                    at.storeBytes(of: 0x3030_3030_3030_2E30 as UInt64, as: UInt64.self)
                    at += 1 - exponent
                    copy(0, significant, to: at)
                    at += significant
                }
            } else {
                at.storeBytes(of: d.load(as: UInt8.self), as: UInt8.self)
                at += 1
                if significant > 1 {
                    at.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
                    copy(1, significant - 1, to: at + 1)
                    at += significant
                }
                at.storeBytes(of: UInt8(ascii: "e"), as: UInt8.self)
                at.storeBytes(of: exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"), toByteOffset: 1, as: UInt8.self)
                at += 2
                // At least two digits, as printf writes them.
                var magnitude = Int(exponent.magnitude)
                if magnitude >= 100 {
                    at.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 100), as: UInt8.self)
                    at += 1
                    magnitude %= 100
                }
                at.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 10), as: UInt8.self)
                at.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10), toByteOffset: 1, as: UInt8.self)
                at += 2
            }
            out.count += at - start
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

extension UInt128 {
    /// The low 64 bits.
    @inline(__always)
    var low64: UInt64 { UInt64(truncatingIfNeeded: self) }
}
