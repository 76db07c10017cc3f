import Foundation
@testable import PlistBuddy
import Testing

/// The readings under the commands: C's `sscanf` conversions, `strptime`'s date forms, and how
/// an entry splits at its colons. The C behaviour is that of the C standard and of FreeBSD's
/// libc, which macOS ships (strtoll saturates; `%i` takes `0x` and leading-zero octal;
/// `strptime`'s `%Z` knows GMT, UTC and the local zone's names).
@Suite struct PlistBuddyTextTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func integersAreReadAsPercentLLDReadsThem() {
        func scan(_ s: String) -> String {
            switch CNumberScanner.integer(Self.bytes(s)) {
            case .endOfInput: "eof"
            case .noMatch: "none"
            case .value(let v): String(v)
            }
        }
        #expect(scan("42") == "42")
        #expect(scan("  -17xyz") == "-17")
        #expect(scan("+3") == "3")
        #expect(scan("") == "eof")
        #expect(scan(" \t") == "eof")
        #expect(scan("abc") == "none")
        #expect(scan("-") == "none")
        #expect(scan("0x1F") == "0")
        #expect(scan("9223372036854775807") == "9223372036854775807")
        #expect(scan("9223372036854775808") == "9223372036854775807")
        #expect(scan("-9223372036854775808") == "-9223372036854775808")
        #expect(scan("-99999999999999999999") == "-9223372036854775808")
    }

    @Test func realsAreReadAsPercentFReadsThem() {
        func scan(_ s: String) -> Double? {
            if case .value(let v) = CNumberScanner.real(Self.bytes(s)) { return v }
            return nil
        }
        #expect(scan("3.14") == 3.14)
        #expect(scan("-2.5e3kg") == -2500)
        #expect(scan("1.") == 1)
        #expect(scan(".25") == 0.25)
        #expect(scan("1e") == 1)
        #expect(scan("0x1.8p1") == 3)
        #expect(scan("0x") == 0)
        #expect(scan("INF") == .infinity)
        #expect(scan("-Infinity") == -.infinity)
        #expect(scan("nan")?.isNaN == true)
        #expect(scan("abc") == nil)
        #expect(scan(".") == nil)
        if case .endOfInput = CNumberScanner.real(Self.bytes("   ")) {} else { Issue.record("blank is the end of input") }
    }

    @Test func indexesAreReadAsPercentIReadsThemIntoAZeroedInt() {
        #expect(CNumberScanner.index(Self.bytes("2")) == 2)
        #expect(CNumberScanner.index(Self.bytes("0x10")) == 16)
        #expect(CNumberScanner.index(Self.bytes("010")) == 8)
        #expect(CNumberScanner.index(Self.bytes("09")) == 0)
        #expect(CNumberScanner.index(Self.bytes(" 3")) == 3)
        #expect(CNumberScanner.index(Self.bytes("-1")) == -1)
        #expect(CNumberScanner.index(Self.bytes("abc")) == 0)
        #expect(CNumberScanner.index(Self.bytes("")) == 0)
        // Stored into a 32-bit int: 2^32 wraps to 0.
        #expect(CNumberScanner.index(Self.bytes("4294967296")) == 0)
        // Past 64 bits the value saturates at Int64.max, whose low 32 bits are -1.
        #expect(CNumberScanner.index(Self.bytes("0xFFFFFFFFFFFFFFFFFFFF")) == -1)
        #expect(CNumberScanner.index(Self.bytes("-99999999999999999999999")) == 0)
    }

    @Test func datesAreReadInEachOfPlistBuddysThreeForms() {
        let utc = PlistBuddyDateFormat(timeZone: TimeZone(identifier: "UTC"), zoneName: "UTC")
        let expected = Date(timeIntervalSince1970: 1704067200)
        for text in ["Mon Jan 01 00:00:00 UTC 2024", "Mon Jan 01 00:00:00 GMT 2024", "Mon Jan 01 00:00:00 2024", "mon jan  1 00:00:00 2024",
                     "Monday January 01 00:00:00 2024", "01/01/24", "1/1/24 and more", "Tue Jan 01 00:00:00 2024"] {
            #expect(utc.date(from: Self.bytes(text)) == expected, "\(text)")
        }
        #expect(utc.date(from: Self.bytes("12/31/69")) == Date(timeIntervalSince1970: -86400 * 366 + 86400 * 365))
        for text in ["", "2024-01-01", "Mon Jan 01 00:00:00 CET 2024", "Mon Jan 32 00:00:00 2024", "Mon Jan 01 24:00:00 2024", "13/01/24"] {
            #expect(utc.date(from: Self.bytes(text)) == nil, "\(text)")
        }
        // Any zone named is read as local time: 12:00 "UTC" in New York is 17:00 UTC.
        let newYork = PlistBuddyDateFormat(timeZone: TimeZone(identifier: "America/New_York"))
        #expect(newYork.date(from: Self.bytes("Mon Jan 01 12:00:00 UTC 2024")) == Date(timeIntervalSince1970: 1704067200 + 17 * 3600))
    }

    @Test func datesPrintWithTheDayNamesAndPaddingOfStrftime() {
        let utc = PlistBuddyDateFormat(timeZone: TimeZone(identifier: "UTC"), zoneName: "UTC")
        #expect(utc.text(for: Date(timeIntervalSince1970: 1704067200)) == "Mon Jan 01 00:00:00 UTC 2024")
        #expect(utc.text(for: Date(timeIntervalSince1970: 1704067200 + 0.9)) == "Mon Jan 01 00:00:00 UTC 2024")
        #expect(utc.text(for: Date(timeIntervalSince1970: 1704067199.5)) == "Sun Dec 31 23:59:59 UTC 2023")
    }

    @Test func anEntrySplitsAtItsLastColonThatNoBackslashEscapes() {
        let entry = PlistBuddyEntry(#":a:b\:c"#)
        #expect(entry.name == "b:c")
        #expect(entry.container.map { String(decoding: $0.text, as: UTF8.self) } == ":a")
        #expect(entry.container?.isInRoot == true)
        #expect(PlistBuddyEntry("plain").container == nil)
        #expect(PlistBuddyEntry(":").name == "")
        #expect(PlistBuddyEntry(":").isInRoot)
        #expect(PlistBuddyEntry(#"a\b"#).name == #"a\b"#)
        #expect(PlistBuddyEntry("a:").name == "")
        #expect(PlistBuddyEntry("a:").isInRoot == false)
    }
}
