import Foundation
import Testing
@testable import PropertyList

/// `archivist print`'s text, in the style of `plutil -p`.
@Suite struct PropertyListPrettyPrinterTests {
    static let sample: PropertyListValue = .dictionary(PropertyListDictionary([
        (.string("name"), .string("Bow \"tie\"\n")),
        (.string("count"), -42),
        (.string("big"), .integer(PropertyListInteger(UInt64.max))),
        (.string("ratio"), .real(0.25)),
        (.string("on"), .bool(true)),
        (.string("when"), .date(Date(timeIntervalSinceReferenceDate: 86_400 * 366 + 3_661))),
        (.string("fraction"), .date(Date(timeIntervalSinceReferenceDate: 0.5))),
        (.string("bytes"), .data(Data([0x00, 0x0F, 0xA0]))),
        (.string("tags"), .array([.string("a"), .array([])])),
        (.string("set"), .set([.uid(7)])),
        (3, .null),
        (.string("empty"), .dictionary(PropertyListDictionary())),
    ]))

    @Test func everyKindOfValuePrintsAsPlutilShowsIt() {
        let expected = """
            {
              "name" => "Bow \\"tie\\"\\n"
              "count" => -42
              "big" => 18446744073709551615
              "ratio" => 0.25
              "on" => true
              "when" => 2002-01-02 01:01:01 +0000
              "fraction" => 2001-01-01 00:00:00.5 +0000
              "bytes" => {length = 3, bytes = 0x000fa0}
              "tags" => [
                0 => "a"
                1 => []
              ]
              "set" => set [
                0 => <CF$UID 7>
              ]
              3 => null
              "empty" => {}
            }

            """
        #expect(PropertyListPrettyPrinter().render(Self.sample) == expected)
    }

    @Test func aFractionThatRoundsAwayLeavesNoDanglingPoint() {
        // 0.9999999 s shows as 1.000000 to six digits: no fraction, rather than "00:00:00.".
        #expect(PropertyListPrettyPrinter.dateText(Date(timeIntervalSinceReferenceDate: 0.9999999)) == "2001-01-01 00:00:00 +0000")
        #expect(PropertyListPrettyPrinter.dateText(Date(timeIntervalSinceReferenceDate: 0.125)) == "2001-01-01 00:00:00.125 +0000")
    }

    @Test func dataShowsItsLengthAndTheFirst64BytesOnly() {
        let text = PropertyListPrettyPrinter().render(.data(Data(repeating: 0xAB, count: 100)))
        #expect(text == "{length = 100, bytes = 0x" + String(repeating: "ab", count: 64) + "...}\n")
    }

    @Test func colorsWrapEachScalarInItsEscape() {
        let text = PropertyListPrettyPrinter(usesColors: true).render(["k": ["x", 1]])
        #expect(text.contains("\u{1B}[34m\"k\"\u{1B}[0m => "))
        #expect(text.contains("\u{1B}[2m0\u{1B}[0m => \u{1B}[32m\"x\"\u{1B}[0m"))
        #expect(text.contains("\u{1B}[33m1\u{1B}[0m"))
    }

    @Test func streamingInTinyPiecesGivesTheSameTextAsRendering() {
        var pieces = 0
        var bytes: [UInt8] = []
        PropertyListPrettyPrinter().write(Self.sample, chunkSize: 1) { piece in
            pieces += 1
            bytes += piece
        }
        #expect(String(decoding: bytes, as: UTF8.self) == PropertyListPrettyPrinter().render(Self.sample))
        #expect(pieces > 10)
    }

    @Test func indentationStopsGrowingAt512Levels() {
        var value: PropertyListValue = "leaf"
        for _ in 0..<1_000 { value = [value] }
        let lines = PropertyListPrettyPrinter().render(value).split(separator: "\n")
        let widest = lines.map { $0.prefix { $0 == " " }.count }.max()
        #expect(widest == 2 * PropertyListPrettyPrinter.maximumIndentation)
        #expect(lines.contains { $0.hasSuffix("0 => \"leaf\"") })
    }
}
