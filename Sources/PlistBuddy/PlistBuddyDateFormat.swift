import Foundation
internal import SystemInterface

/// How PlistBuddy prints and reads dates: in the local time zone, as `strftime` and
/// `strptime` write `%a %b %d %H:%M:%S %Z %Y` (`Mon Jan 01 00:00:00 UTC 2024`).
///
/// Two habits of the Mac's are kept. The zone printed is always the zone's standard-time name
/// (`EST` in July too), because PlistBuddy hands `strftime` a time that says no daylight saving
/// time. And a date read is taken as local time whatever zone it names, the zone only having to
/// be one `strptime` knows (GMT, UTC or the local zone's own names).
public struct PlistBuddyDateFormat: Sendable, Hashable {
    /// The zone dates are shown and read in; nil is the C library's local time (the `TZ`
    /// variable, else the system's zone), as on a Mac.
    public var timeZone: TimeZone?
    /// The zone's name in printed dates, for a `timeZone` given here; nil is its standard-time
    /// abbreviation as Foundation knows it (Foundation on Linux calls UTC `GMT`, and a
    /// Mac's C library `UTC`: give `"UTC"` for that).
    public var zoneName: String?

    public init(timeZone: TimeZone? = nil, zoneName: String? = nil) {
        self.timeZone = timeZone
        self.zoneName = zoneName
    }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// `date` as PlistBuddy's `Print` shows it.
    public func text(for date: Date) -> String {
        let interval = date.timeIntervalSince1970.rounded(.down)
        let seconds = interval.isFinite && abs(interval) < 1e17 ? Int64(interval) : 0
        var fields: LocalTime.Fields?
        var zone: String
        if let timeZone {
            fields = Self.fields(of: Date(timeIntervalSince1970: Double(seconds)), in: timeZone)
            zone = zoneName ?? Self.standardName(of: timeZone, near: Date(timeIntervalSince1970: Double(seconds)))
        } else {
            fields = LocalTime.fields(unixSeconds: seconds)
            zone = LocalTime.standardZoneName(near: seconds)
        }
        guard let f = fields ?? Self.fields(of: Date(timeIntervalSince1970: Double(seconds)), in: TimeZone(identifier: "UTC") ?? .current) else {
            return ""
        }
        if fields == nil { zone = "UTC" }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        let year = f.year >= 0 && f.year < 1000 ? String(repeating: "0", count: 4 - String(f.year).count) + String(f.year) : String(f.year)
        return "\(Self.weekdays[f.weekday].prefix(3)) \(Self.months[f.month - 1].prefix(3)) \(two(f.day)) \(two(f.hour)):\(two(f.minute)):\(two(f.second)) \(zone) \(year)"
    }

    /// The date `text` gives in one of the forms PlistBuddy tries in turn:
    /// `%a %b %d %H:%M:%S %Z %Y` (`Mon Jan 01 00:00:00 UTC 2024`, the zone optional), C's `%c`
    /// (`Mon Jan  1 00:00:00 2024`) and `%D` (`01/31/24`), names in English in any case; nil
    /// when none fits. Anything after the date is ignored, as `strptime` ignores it.
    public func date(from text: some Collection<UInt8>) -> Date? {
        let bytes = Array(text)
        for form in [Self.fullForm, Self.cForm, Self.slashForm] {
            guard let fields = parse(bytes, form) else { continue }
            if let timeZone {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = timeZone
                let components = DateComponents(year: fields.year, month: fields.month, day: fields.day, hour: fields.hour,
                                                minute: fields.minute, second: fields.second)
                if let date = calendar.date(from: components) { return date }
            } else if let seconds = LocalTime.unixSeconds(fields) {
                return Date(timeIntervalSince1970: Double(seconds))
            }
        }
        return nil
    }

    // MARK: Reading

    /// One conversion of a `strptime` format.
    enum Piece {
        /// White space in the format: any run of white space, or none.
        case space
        case literal(UInt8)
        case weekdayName, monthName
        /// `%d` and `%e`: one leading space allowed, then one or two digits, 1 to 31.
        case day
        case hour, minute, second
        /// `%Z`: a run of capitals naming a zone strptime knows, or nothing at all.
        case zone
        /// `%Y`: up to four digits.
        case year
        /// `%y`: two digits, 69 to 99 in the 1900s and the rest in the 2000s.
        case shortYear
        case monthNumber
    }

    static let fullForm: [Piece] = [.weekdayName, .space, .monthName, .space, .day, .space, .hour, .literal(0x3A), .minute,
                                    .literal(0x3A), .second, .space, .zone, .space, .year]
    /// `%c` in the C locale: `%a %b %e %H:%M:%S %Y`.
    static let cForm: [Piece] = [.weekdayName, .space, .monthName, .space, .day, .space, .hour, .literal(0x3A), .minute,
                                 .literal(0x3A), .second, .space, .year]
    /// `%D`: `%m/%d/%y`.
    static let slashForm: [Piece] = [.monthNumber, .literal(0x2F), .day, .literal(0x2F), .shortYear]

    func parse(_ bytes: [UInt8], _ form: [Piece]) -> LocalTime.Fields? {
        var input = bytes[...]
        var f = LocalTime.Fields(year: 1900, month: 1, day: 0, hour: 0, minute: 0, second: 0, weekday: 0)
        func number(maxDigits: Int) -> Int? {
            guard let first = input.first, CNumberScanner.isDigit(first) else { return nil }
            var value = 0
            var count = 0
            while count < maxDigits, let b = input.first, CNumberScanner.isDigit(b) {
                value = value * 10 + Int(b - 0x30)
                input.removeFirst()
                count += 1
            }
            return value
        }
        func name(from names: [String]) -> Int? {
            let lowered = input.prefix(12).map { $0 | 0x20 }
            for (i, full) in names.enumerated() {
                for candidate in [full.lowercased(), String(full.lowercased().prefix(3))] where lowered.starts(with: candidate.utf8) {
                    input.removeFirst(candidate.utf8.count)
                    return i
                }
            }
            return nil
        }
        for piece in form {
            switch piece {
            case .space:
                while let b = input.first, CNumberScanner.isSpace(b) { input.removeFirst() }
            case .literal(let c):
                guard input.first == c else { return nil }
                input.removeFirst()
            case .weekdayName:
                guard let i = name(from: Self.weekdays) else { return nil }
                f.weekday = i
            case .monthName:
                guard let i = name(from: Self.months) else { return nil }
                f.month = i + 1
            case .day:
                if let b = input.first, CNumberScanner.isSpace(b) { input.removeFirst() }
                guard let d = number(maxDigits: 2), (1...31).contains(d) else { return nil }
                f.day = d
            case .hour:
                guard let h = number(maxDigits: 2), h <= 23 else { return nil }
                f.hour = h
            case .minute:
                guard let m = number(maxDigits: 2), m <= 59 else { return nil }
                f.minute = m
            case .second:
                guard let s = number(maxDigits: 2), s <= 60 else { return nil }
                f.second = s
            case .zone:
                let capitals = input.prefix { (0x41...0x5A).contains($0) }
                guard !capitals.isEmpty else { break }
                let zone = String(decoding: capitals, as: UTF8.self)
                guard zone == "GMT" || zone == "UTC" || knownZoneNames.contains(zone) else { return nil }
                input.removeFirst(capitals.count)
            case .year:
                guard let y = number(maxDigits: 4) else { return nil }
                f.year = y
            case .shortYear:
                guard let y = number(maxDigits: 2) else { return nil }
                f.year = y < 69 ? 2000 + y : 1900 + y
            case .monthNumber:
                guard let m = number(maxDigits: 2), (1...12).contains(m) else { return nil }
                f.month = m
            }
        }
        return f
    }

    /// The names of the zone dates are read in.
    var knownZoneNames: Set<String> {
        let now = Date()
        if let timeZone {
            return Set([timeZone.identifier, Self.standardName(of: timeZone, near: now)] + [timeZone.abbreviation(for: now), zoneName].compactMap { $0 })
        }
        return LocalTime.zoneNames(near: Int64(now.timeIntervalSince1970))
    }

    // MARK: A zone given by the caller

    static func fields(of date: Date, in zone: TimeZone) -> LocalTime.Fields? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        guard let year = c.year, let month = c.month, let day = c.day, let hour = c.hour, let minute = c.minute,
              let second = c.second, let weekday = c.weekday else { return nil }
        return LocalTime.Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second, weekday: weekday - 1)
    }

    /// A zone's standard-time name: its identifier for UTC and GMT (Foundation would say GMT for
    /// both), else Foundation's abbreviation at a moment near `date` outside daylight saving time.
    static func standardName(of zone: TimeZone, near date: Date) -> String {
        let last = zone.identifier.split(separator: "/").last.map(String.init) ?? zone.identifier
        if ["UTC", "GMT", "UCT", "Zulu", "Universal"].contains(last) { return last == "UCT" || last == "Zulu" || last == "Universal" ? "UTC" : last }
        for offset: TimeInterval in [0, 183 * 86_400, -183 * 86_400] {
            let moment = date.addingTimeInterval(offset)
            if !zone.isDaylightSavingTime(for: moment), let name = zone.abbreviation(for: moment) { return name }
        }
        return zone.abbreviation(for: date) ?? zone.identifier
    }
}
