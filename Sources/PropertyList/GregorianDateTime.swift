/// A UTC date and time in the proleptic Gregorian calendar, as CF's plist code computes it.
///
/// Foundation's Calendar switches to the Julian calendar before 1582, which would shift old
/// dates by days; plists count seconds from 2001-01-01 in the Gregorian calendar throughout.
public struct GregorianDateTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Days from 2001-01-01 to 1970-01-01 subtracted from days since 1970.
    static let referenceDayOffset = 11_323

    /// The whole-second time at or before `secondsSinceReferenceDate` (which must be finite and
    /// within the range that fits an Int).
    public init(secondsSinceReferenceDate seconds: Double) {
        let whole = Int(seconds.rounded(.down))
        var days = whole / 86_400
        var rest = whole % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (y, m, d) = Self.civil(fromDaysSince1970: days + Self.referenceDayOffset)
        self.init(year: y, month: m, day: d, hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
    }

    /// Seconds since 2001-01-01T00:00:00Z.
    public var secondsSinceReferenceDate: Double {
        let days = Self.daysSince1970(year: year, month: month, day: day) - Self.referenceDayOffset
        return Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second)
    }

    /// Whether the fields name a real date and time (seconds 0-59, days within the month).
    public var isValid: Bool {
        guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
            return false
        }
        return day >= 1 && day <= Self.daysIn(month: month, year: year)
    }

    static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a civil date, counting March-based years in 400-year eras.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSince1970`.
    static func civil(fromDaysSince1970 z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The fraction of a second in `seconds` as shown after the whole seconds: `.5`, `.123457`
    /// (six digits at most, trailing zeros dropped), or nothing when there is none to six digits.
    public static func fractionText(ofSeconds seconds: Double) -> String {
        let fraction = seconds - seconds.rounded(.down)
        guard fraction != 0 else { return "" }
        // Rounded to microseconds as `%.6f` rounds: the product is off by at most 1.2e-10, so
        // only a value that close to half a microsecond needs printf's exact rounding.
        let micros = fraction * 1_000_000
        if fraction.isFinite, abs(micros - micros.rounded(.down) - 0.5) > 1e-9 {
            let value = Int(micros.rounded())
            guard value > 0, value < 1_000_000 else { return "" }
            var digits = [UInt8](repeating: UInt8(ascii: "."), count: 7)
            putDigits(value, width: 6, endingAt: 7, in: &digits)
            while digits.last == UInt8(ascii: "0") { digits.removeLast() }
            return String(decoding: digits, as: UTF8.self)
        }
        return fractionTextByPrintf(fraction)
    }

    /// `fractionText` of a nonzero `fraction` of a second rounded by printf (`%.6f`), exactly.
    static func fractionTextByPrintf(_ fraction: Double) -> String {
        var digits = String(format: "%.6f", fraction).drop { $0 != "." }
        while digits.last == "0" { digits = digits.dropLast() }
        return digits.count > 1 ? String(digits) : ""
    }

    /// Writes `value` (not negative) as `width` decimal digits, zero-padded, into the bytes
    /// before `end`.
    private static func putDigits(_ value: Int, width: Int, endingAt end: Int, in text: inout [UInt8]) {
        var value = value
        for i in stride(from: end - 1, through: end - width, by: -1) {
            text[i] = UInt8(48 + value % 10)
            value /= 10
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, as XML property lists spell dates.
    public var iso8601: String {
        let twoDigits = 0...99
        if (0...9999).contains(year), twoDigits.contains(month), twoDigits.contains(day), twoDigits.contains(hour),
           twoDigits.contains(minute), twoDigits.contains(second) {
            // Fixed widths: written into 20 bytes, without a string per field.
            var text = [UInt8](repeating: 0, count: 20)
            func put(_ v: Int, _ width: Int, at end: Int) { Self.putDigits(v, width: width, endingAt: end, in: &text) }
            put(year, 4, at: 4); text[4] = UInt8(ascii: "-")
            put(month, 2, at: 7); text[7] = UInt8(ascii: "-")
            put(day, 2, at: 10); text[10] = UInt8(ascii: "T")
            put(hour, 2, at: 13); text[13] = UInt8(ascii: ":")
            put(minute, 2, at: 16); text[16] = UInt8(ascii: ":")
            put(second, 2, at: 19); text[19] = UInt8(ascii: "Z")
            return String(decoding: text, as: UTF8.self)
        }
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
    }
}
