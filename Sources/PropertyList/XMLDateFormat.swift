import Foundation

/// XML plist dates, `YYYY-MM-DDTHH:MM:SSZ` in UTC on the proleptic Gregorian calendar with
/// astronomical years (year 0 exists, so 1 BC is `0000` and 2 BC is `-001`), as CF reads and writes them.
enum XMLDateFormat {
    /// Past this many seconds from 2001, CF's floating-point calendar arithmetic stops being exact.
    static let writableRange: ClosedRange<Double> = -1e15...1e15

    /// Parses CF's form, and the truncated forms (`YYYY-MM-DDZ`, `YYYYZ`, …) that plistlib also reads.
    ///
    /// Day, hour, minute and second are combined arithmetically as CF does, so `02-30` is March 2nd.
    /// - Returns: nil when the text is not a date.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        let n = text.count
        func digits(_ count: Int) -> Int64? {
            guard i + count <= n else { return nil }
            var v: Int64 = 0
            for k in i..<(i + count) {
                let d = text[k] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                v = v * 10 + Int64(d)
            }
            i += count
            return v
        }
        func take(_ c: UInt8) -> Bool {
            guard i < n, text[i] == c else { return false }
            i += 1
            return true
        }
        let negative = take(UInt8(ascii: "-"))
        // Nine digits keep every later step far from overflow.
        let yearDigits = countDigits(text, from: i)
        guard yearDigits >= 1, yearDigits <= 9, var year = digits(yearDigits) else { return nil }
        if negative { year = -year }
        var month: Int64 = 1, day: Int64 = 1, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0
        // Each later field is optional only together with all the ones after it.
        parsing: do {
            guard take(UInt8(ascii: "-")) else { break parsing }
            guard let mo = digits(2) else { return nil }
            month = mo
            guard take(UInt8(ascii: "-")) else { break parsing }
            guard let d = digits(2) else { return nil }
            day = d
            guard take(UInt8(ascii: "T")) else { break parsing }
            guard let h = digits(2) else { return nil }
            hour = h
            guard take(UInt8(ascii: ":")) else { break parsing }
            guard let mi = digits(2) else { return nil }
            minute = mi
            guard take(UInt8(ascii: ":")) else { break parsing }
            guard let s = digits(2) else { return nil }
            second = s
        }
        guard take(UInt8(ascii: "Z")), i == n else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        // Day-of-month arithmetic is CF's: the first of the month plus (day - 1) days.
        let firstOfMonth = GregorianDateTime.daysSince1970(year: Int(year), month: Int(month), day: 1)
        let days = Int64(firstOfMonth - GregorianDateTime.referenceDayOffset) + (day - 1)
        let seconds = 86400.0 * Double(days) + 3600.0 * Double(hour) + 60.0 * Double(minute) + Double(second)
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    private static func countDigits(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < text.count, text[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        return i - start
    }

    /// Appends the date as CF's XML writer does, whole seconds rounded down, with CF's own
    /// floating-point steps (so a time a hair below a minute prints second `60`, as CF does).
    ///
    /// - Returns: false when the date is not finite or too far out for CF's arithmetic to be exact.
    static func append(_ date: Date, to out: inout OutputBuffer) -> Bool {
        guard let fields = fields(date) else { return false }
        let twoDigitFields: ClosedRange<Int64> = 0...99
        guard (0...9999).contains(fields.year), twoDigitFields.contains(fields.month), twoDigitFields.contains(fields.day),
              twoDigitFields.contains(fields.hour), twoDigitFields.contains(fields.minute), twoDigitFields.contains(fields.second) else {
            appendPadded(fields, to: &out)
            return true
        }
        // Years of four digits, the ones files hold: the 20 bytes in three word stores.
        out.reserve(24)
        let text = UnsafeMutableRawPointer(out.base + out.count)
        let year = UInt32(truncatingIfNeeded: fields.year)
        // "YYYY-MM-", "DDTHH:MM", ":SSZ".
        text.storeBytes(of: (twoDigits(year / 100) | twoDigits(year % 100) << 16 | 0x2D << 32
                             | twoDigits(UInt32(truncatingIfNeeded: fields.month)) << 40 | 0x2D << 56).littleEndian, as: UInt64.self)
        text.storeBytes(of: (twoDigits(UInt32(truncatingIfNeeded: fields.day)) | 0x54 << 16
                             | twoDigits(UInt32(truncatingIfNeeded: fields.hour)) << 24 | 0x3A << 40
                             | twoDigits(UInt32(truncatingIfNeeded: fields.minute)) << 48).littleEndian, toByteOffset: 8, as: UInt64.self)
        text.storeBytes(of: (UInt32(0x3A) | UInt32(truncatingIfNeeded: twoDigits(UInt32(truncatingIfNeeded: fields.second))) << 8
                             | 0x5A << 24).littleEndian, toByteOffset: 16, as: UInt32.self)
        out.count += 20
        return true
    }

    /// The fields CF's XML writer prints for `date`, from its floating-point steps; nil when
    /// the date is not finite or too far out for them to be exact.
    static func fields(_ date: Date) -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64)? {
        let at = date.timeIntervalSinceReferenceDate
        guard at.isFinite, writableRange.contains(at) else { return nil }
        let absolute = Int64((at / 86400.0).rounded(.down))
        let civil = GregorianDateTime.civil(fromDaysSince1970: Int(absolute) + GregorianDateTime.referenceDayOffset)
        let hour = modToInt((at / 3600.0).rounded(.down), 24)
        let minute = modToInt((at / 60.0).rounded(.down), 60)
        var secondValue = at - (at / 60.0).rounded(.down) * 60.0
        if secondValue < 0 { secondValue += 60 }
        let second = Int64(secondValue)
        return (Int64(civil.0), Int64(civil.1), Int64(civil.2), hour, minute, second)
    }

    /// Two ASCII digits of `v` (< 100) in the low 16 bits, the first in the low byte.
    @inline(__always)
    private static func twoDigits(_ v: UInt32) -> UInt64 {
        let tens = (v * 103) >> 10
        return UInt64(0x3030 | tens | (v - tens * 10) << 8)
    }

    /// The date's text field by field, for any year: negative years as `-` and three digits
    /// at least, others with four at least.
    static func appendPadded(_ fields: (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64),
                             to out: inout OutputBuffer) {
        if fields.year < 0 {
            out.append(UInt8(ascii: "-"))
            appendPadded(-fields.year, width: 3, to: &out)
        } else {
            appendPadded(fields.year, width: 4, to: &out)
        }
        out.append(UInt8(ascii: "-"))
        appendPadded(fields.month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(fields.day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendPadded(fields.hour, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(fields.minute, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(fields.second, width: 2, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// CF's `__CFDoubleModToInt`.
    private static func modToInt(_ d: Double, _ modulus: Double) -> Int64 {
        var result = Int64(Float((d - (d / modulus).rounded(.down) * modulus).rounded(.down)))
        if result < 0 { result += Int64(modulus) }
        return result
    }

    private static func appendPadded(_ value: Int64, width: Int, to out: inout OutputBuffer) {
        var digitCount = 1
        var rest = value / 10
        while rest > 0 { digitCount += 1; rest /= 10 }
        out.append(repeating: UInt8(ascii: "0"), count: max(width, digitCount) - digitCount)
        out.appendDecimal(UInt64(value))
    }
}
