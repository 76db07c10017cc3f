#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's local time (the `TZ` variable, else the system's zone), which PlistBuddy's
/// dates are printed and read in.
package enum LocalTime {
    /// A broken-down time: the fields `strftime` and `mktime` work on.
    package struct Fields: Equatable {
        package var year: Int
        /// 1 to 12.
        package var month: Int
        package var day: Int
        package var hour: Int
        package var minute: Int
        package var second: Int
        /// 0 for Sunday.
        package var weekday: Int

        package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
            self.weekday = weekday
        }
    }

    /// The local time at `seconds` since 1970, or nil when the C library cannot represent it.
    package static func fields(unixSeconds seconds: Int64) -> Fields? {
        var t = time_t(truncatingIfNeeded: seconds)
        guard Int64(t) == seconds else { return nil }
        var tm = tm()
        guard localtime_r(&t, &tm) != nil else { return nil }
        return Fields(year: Int(tm.tm_year) + 1900, month: Int(tm.tm_mon) + 1, day: Int(tm.tm_mday), hour: Int(tm.tm_hour),
                      minute: Int(tm.tm_min), second: Int(tm.tm_sec), weekday: Int(tm.tm_wday))
    }

    /// Seconds since 1970 of a local time, `mktime` deciding daylight saving time and carrying
    /// out-of-range days into the next month as CoreFoundation does; nil when out of range.
    package static func unixSeconds(_ f: Fields) -> Int64? {
        var tm = tm()
        guard let year = Int32(exactly: f.year - 1900) else { return nil }
        tm.tm_year = year
        tm.tm_mon = Int32(f.month - 1)
        tm.tm_mday = Int32(f.day)
        tm.tm_hour = Int32(f.hour)
        tm.tm_min = Int32(f.minute)
        tm.tm_sec = Int32(f.second)
        tm.tm_isdst = -1
        let t = mktime(&tm)
        // -1 is also a valid time (1969-12-31 23:59:59 UTC): check the fields came back.
        if t == -1, tm.tm_year != year { return nil }
        return Int64(t)
    }

    /// The local zone's name for standard time (C's `tzname[0]`): what `strftime`'s `%Z`
    /// prints for a `struct tm` that says no daylight saving time, as PlistBuddy's does,
    /// found as the zone of a moment in the last or next half year that is not in daylight
    /// saving time.
    package static func standardZoneName(near seconds: Int64) -> String {
        var fallback = "UTC"
        for offset: Int64 in [0, 183 * 86_400, -183 * 86_400] {
            var t = time_t(truncatingIfNeeded: seconds &+ offset)
            var tm = tm()
            guard localtime_r(&t, &tm) != nil, let zone = tm.tm_zone else { continue }
            let name = String(cString: zone)
            if tm.tm_isdst == 0 { return name }
            if offset == 0 { fallback = name }
        }
        return fallback
    }
}

extension LocalTime {
    /// Every name the local zone goes by in the half years around `seconds` (standard and
    /// daylight saving time): the names `strptime`'s `%Z` accepts besides GMT and UTC.
    package static func zoneNames(near seconds: Int64) -> Set<String> {
        var names: Set<String> = []
        for offset: Int64 in [0, 183 * 86_400, -183 * 86_400] {
            var t = time_t(truncatingIfNeeded: seconds &+ offset)
            var tm = tm()
            guard localtime_r(&t, &tm) != nil, let zone = tm.tm_zone else { continue }
            names.insert(String(cString: zone))
        }
        return names
    }
}
