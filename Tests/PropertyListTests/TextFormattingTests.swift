import Foundation
import Testing
@testable import PropertyList

/// The printers' small formatters take quicker paths than `String(format:)` and a string grown
/// scalar by scalar; they must still give exactly what those give.
@Suite struct TextFormattingTests {
    @Test func hexTextIsWhatFormatStringsGiveForEveryByteAndSomeUnits() {
        for byte in UInt8.min...UInt8.max {
            #expect(HexText.lowercase([byte]) == String(format: "%02x", byte))
        }
        let bytes: [UInt8] = [0x00, 0x7f, 0x80, 0xff, 0x0a, 0xbc]
        #expect(HexText.lowercase(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(HexText.lowercase(Data(bytes).prefix(3)) == "007f80")
        for unit: UInt16 in [0, 0x1f, 0x7f, 0xe9, 0xd800, 0xdfff, 0xfffe, 0xffff, 0x1234] {
            #expect(HexText.uppercase(unit) == String(format: "%04X", unit))
        }
    }

    @Test(arguments: ["", "plain", "Zürich 日本語 😀", "say \"hi\"", "back\\slash", "line\nbreak\ttab\rreturn",
                      "nul\u{0}bell\u{7}del\u{7F}", "é\u{1F}", "\u{2028} and \u{A0}"])
    func quotedStringsAreWhatScalarByScalarEscapingGives(_ text: String) {
        // The quick path takes strings with nothing to escape whole; escaping them scalar by
        // scalar (quotes, `\n`, `\t`, `\r`, `\uXXXX` for other control characters and DEL)
        // must give the same.
        #expect(PropertyListPrettyPrinter.quoted(text) == PropertyListPrettyPrinter.quotedScalarByScalar(text))
    }

    @Test func stringsWithSomethingToEscapeShowItAsBefore() {
        #expect(PropertyListPrettyPrinter.quoted("say \"hi\"") == #""say \"hi\"""#)
        #expect(PropertyListPrettyPrinter.quoted("back\\slash") == #""back\\slash""#)
        #expect(PropertyListPrettyPrinter.quoted("line\nbreak\ttab\rreturn") == #""line\nbreak\ttab\rreturn""#)
        #expect(PropertyListPrettyPrinter.quoted("nul\u{0}bell\u{7}del\u{7F}") == #""nul\u0000bell\u0007del\u007F""#)
        #expect(PropertyListPrettyPrinter.quoted("é\u{1F} \u{2028}") == "\"é\\u001F \u{2028}\"")
    }

    @Test func isoDatesHaveFourDigitYearsAndTwoDigitFieldsAsBefore() {
        #expect(GregorianDateTime(year: 2001, month: 1, day: 1).iso8601 == "2001-01-01T00:00:00Z")
        #expect(GregorianDateTime(year: 0, month: 12, day: 31, hour: 23, minute: 59, second: 59).iso8601 == "0000-12-31T23:59:59Z")
        #expect(GregorianDateTime(year: 9999, month: 9, day: 9, hour: 9, minute: 9, second: 9).iso8601 == "9999-09-09T09:09:09Z")
        #expect(GregorianDateTime(year: 42, month: 3, day: 7, hour: 5).iso8601 == "0042-03-07T05:00:00Z")
        // Outside four digits, the fields are written as they are, as before.
        #expect(GregorianDateTime(year: 10_000, month: 1, day: 1).iso8601 == "10000-01-01T00:00:00Z")
        #expect(GregorianDateTime(year: -1, month: 1, day: 1).iso8601 == "00-1-01-01T00:00:00Z")
    }
}

/// Fractions of a second are rounded to microseconds as `%.6f` rounds them.
@Suite struct FractionTextTests {
    /// The fraction of `seconds` as printf rounds it, always.
    static func formatted(_ seconds: Double) -> String {
        let fraction = seconds - seconds.rounded(.down)
        return fraction == 0 ? "" : GregorianDateTime.fractionTextByPrintf(fraction)
    }

    @Test func fractionsAreWhatPrintfGivesAcrossManyValuesAndAtHalfAMicrosecond() {
        var generator = SystemRandomNumberGenerator()
        var samples: [Double] = [0, 0.5, 0.25, 0.1, 0.123456, 0.1234565, 0.0000005, 0.0000015, 0.9999995, 0.99999949,
                                 0.9999996, 1e-7, 3.0000005, -0.5, -1.0000005, 86_400.5, 1e9 + 0.3, 700_000_000.999_999_5]
        for _ in 0..<20_000 { samples.append(Double.random(in: -1e9...1e9, using: &generator)) }
        for _ in 0..<20_000 { samples.append(Double(Int.random(in: 0..<2_000_000, using: &generator)) / 2_000_000) }
        for seconds in samples {
            #expect(GregorianDateTime.fractionText(ofSeconds: seconds) == Self.formatted(seconds), "\(seconds)")
        }
    }
}
