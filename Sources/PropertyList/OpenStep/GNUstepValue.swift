import Foundation

/// The bodies of GNUstep's typed OpenStep values (`<*I12>`, `<*R1.5>`, `<*D2011-11-28 09:21:30
/// +0000>`) and of its base64 data (`<[AAEC]>`), which GNUstep and dd-plist write and Core
/// Foundation refuses: read only beyond CF (`PropertyListReadOptions.readsBeyondCoreFoundation`).
enum GNUstepValue {
    /// A decimal integer with an optional sign, up to 128 bits.
    static func integer(_ body: UnsafeBufferPointer<UInt8>) -> PropertyListInteger? {
        var i = 0
        var negative = false
        if i < body.count, body[i] == UInt8(ascii: "-") || body[i] == UInt8(ascii: "+") {
            negative = body[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < body.count else { return nil }
        var value: Int128 = 0
        while i < body.count {
            let d = body[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int128(d)) : m.addingReportingOverflow(Int128(d))
            guard !o1, !o2 else { return nil }
            value = s
            i += 1
        }
        return PropertyListInteger(value)
    }

    /// A real as Swift spells one, without spaces.
    static func real(_ body: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !body.isEmpty, body.count <= 64, !body.contains(where: { $0 <= 0x20 || $0 >= 0x80 }) else { return nil }
        return Double(String(decoding: body, as: UTF8.self))
    }

    /// `YYYY-MM-DD HH:MM:SS ±HHMM`, as GNUstep writes dates, in the proleptic Gregorian calendar.
    static func date(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= b.count else { return nil }
            var v = 0
            for k in 0..<digits {
                let d = b[i + k] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            i += digits
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2), expect(UInt8(ascii: " ")), let hour = number(2), expect(UInt8(ascii: ":")),
              let minute = number(2), expect(UInt8(ascii: ":")), let second = number(2), expect(UInt8(ascii: " ")),
              i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")
        else { return nil }
        let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let zoneHours = number(2), let zoneMinutes = number(2), i == b.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= GregorianDateTime.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60, zoneHours < 24, zoneMinutes < 60
        else { return nil }
        let days1970 = GregorianDateTime.daysSince1970(year: year, month: month, day: day)
        let offset = sign * (zoneHours * 3600 + zoneMinutes * 60)
        let seconds1970 = days1970 * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds1970))
    }

    /// Standard base64, whitespace ignored, padding optional.
    static func base64(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(b.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var symbols = 0
        var padding = 0
        for c in b {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return nil
            }
            guard padding == 0 else { return nil }  // nothing after padding
            symbols += 1
            accumulator = accumulator << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard symbols % 4 != 1, padding <= 2, padding == 0 || (symbols + padding) % 4 == 0 else { return nil }
        return out
    }
}
