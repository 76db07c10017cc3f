import Foundation
import Testing
@testable import PropertyList
import PropertyListXML

/// A key written twice in one dictionary: each text reader reports it with the line and column
/// of both, and keeps what Apple's readers keep (the later value).
@Suite struct DuplicateKeyTests {
    /// The same document, `{a: 1, b: 5, a: 2}` with the repeated `a` on line 4, in each text
    /// format, with where the repeat and the first `a` are.
    static let documents: [(format: PropertyListFormat, text: String, line: Int, column: Int, firstLine: Int, firstColumn: Int)] = [
        (.xml, """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>a</key><integer>1</integer><key>b</key><integer>5</integer>
              <key>a</key><integer>2</integer>
            </dict></plist>
            """, 4, 8, 3, 8),   // XML points at the key's text, as its other errors do
        (.openStep, """
            // a comment
            {
              a = 1; b = 5;
              a = 2;
            }
            """, 4, 3, 3, 3),
        (.json, """
            {
              "x": 0,
              "a": 1, "b": 5,
              "a": 2
            }
            """, 4, 3, 3, 3),
    ]

    /// The numbers as each format spells them: OpenStep has only strings.
    static func number(_ n: Int, _ format: PropertyListFormat) -> PropertyListValue {
        format == .openStep ? .string(String(n)) : .integer(PropertyListInteger(n))
    }

    @Test(arguments: documents.indices)
    func aRepeatedKeyIsReportedWithBothPlacesAndKeepsItsLastValue(_ index: Int) throws {
        let document = Self.documents[index]
        var warnings: [PropertyListWarning] = []
        let (value, format) = try PropertyListReader().read(Data(document.text.utf8), warnings: &warnings)
        #expect(format == document.format)
        try #require(warnings.count == 1)
        let warning = warnings[0]
        #expect(warning.code == .duplicateKey)
        #expect(warning.location == .lineColumn(line: document.line, column: document.column))
        #expect(warning.message.contains("duplicate key \"a\" at line \(document.line), column \(document.column) in root (first at line \(document.firstLine), column \(document.firstColumn))"),
                "\(warning.message)")
        guard case .dictionary(let dictionary) = value else {
            Issue.record("not a dictionary: \(value)")
            return
        }
        // One `a`, in its first place, with the later value.
        let keys = dictionary.keys.compactMap(\.stringValue).filter { $0 != "x" }
        #expect(keys == ["a", "b"])
        #expect(dictionary["a"] == Self.number(2, format))
        #expect(dictionary["b"] == Self.number(5, format))
    }

    @Test(arguments: documents.indices)
    func keepAllKeepsEveryEntryAndStillWarns(_ index: Int) throws {
        let document = Self.documents[index]
        var options = PropertyListReadOptions()
        options.duplicateKeys = .keepAll
        var warnings: [PropertyListWarning] = []
        let (value, _) = try PropertyListReader(options: options).read(Data(document.text.utf8), warnings: &warnings)
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.hasSuffix("both entries are kept") == true)
        guard case .dictionary(let dictionary) = value else {
            Issue.record("not a dictionary")
            return
        }
        #expect(dictionary.keys.compactMap(\.stringValue).filter { $0 != "x" } == ["a", "b", "a"])
    }

    /// What Foundation on this machine (CF's XML and OpenStep parsers, JSONSerialization) reads
    /// from the same bytes: the value we keep must be the one it keeps.
    @Test(arguments: documents.indices)
    func theKeptValueIsTheOneFoundationReads(_ index: Int) throws {
        let document = Self.documents[index]
        let data = Data(document.text.utf8)
        let foundation: Any = document.format == .json
            ? try JSONSerialization.jsonObject(with: data)
            : try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let theirs = try #require(foundation as? [String: Any])
        let (ours, _) = try PropertyListReader().read(data)
        guard case .dictionary(let dictionary) = ours, let a = dictionary["a"] else {
            Issue.record("no a")
            return
        }
        #expect(matches(theirs["a"] as Any, a), "Foundation read \(theirs["a"] ?? "nothing"), we kept \(a)")
    }

    @Test func aRepeatedKeyDeepInsideIsReportedWithItsPath() throws {
        let json = #"{"outer": [{"k": 1}, {"k": 2, "k": 3}]}"#
        var warnings: [PropertyListWarning] = []
        _ = try JSONPropertyListReader().read(Data(json.utf8), warnings: &warnings)
        #expect(warnings.count == 1)
        #expect(warnings.first?.keyPath == ["outer", "[1]"])
        #expect(warnings.first?.message.contains("in root.outer[1]") == true, "\(warnings.first?.message ?? "")")
    }

    @Test func aLargeDictionaryFindsEveryRepeat() throws {
        // 40 keys, three of them written again: past the size where keys are compared pairwise.
        var entries = (0..<40).map { "\"k\($0)\": \($0)" }
        entries += ["\"k3\": 103", "\"k17\": 117", "\"k3\": 203"]
        var warnings: [PropertyListWarning] = []
        let value = try JSONPropertyListReader().read(Data(("{" + entries.joined(separator: ",") + "}").utf8), warnings: &warnings)
        #expect(warnings.count == 3)
        guard case .dictionary(let dictionary) = value else { return }
        #expect(dictionary.count == 40)
        #expect(dictionary["k3"] == 203)
        #expect(dictionary["k17"] == 117)
        #expect(dictionary.keys[3] == .string("k3"), "the key stays where it was first written")
    }

    @Test func aStringsFileWithARepeatedKeyWarnsToo() throws {
        var warnings: [PropertyListWarning] = []
        let value = try OpenStepPropertyListReader().read(Data("\"hello\" = \"Hello\";\n\"hello\" = \"Hi\";\n".utf8), warnings: &warnings)
        #expect(warnings.first?.location == .lineColumn(line: 2, column: 1))
        #expect(value == .dictionary(PropertyListDictionary([(.string("hello"), .string("Hi"))])))
    }

    @Test func keysThatDifferOnlyByNormalizationAreNotRepeats() throws {
        // CF compares keys by code points: é and e + combining acute are two keys.
        var warnings: [PropertyListWarning] = []
        _ = try JSONPropertyListReader().read(Data("{\"\u{E9}\": 1, \"e\u{301}\": 2}".utf8), warnings: &warnings)
        #expect(warnings.isEmpty)
    }

    @Test func aUIDInXMLIsNotADictionaryWithARepeat() throws {
        let xml = "<plist><array><dict><key>CF$UID</key><integer>3</integer></dict></array></plist>"
        var warnings: [PropertyListWarning] = []
        let value = try XMLPropertyListReader().read(Data(xml.utf8), warnings: &warnings)
        #expect(warnings.isEmpty)
        #expect(value == .array([.uid(3)]))
    }
}
