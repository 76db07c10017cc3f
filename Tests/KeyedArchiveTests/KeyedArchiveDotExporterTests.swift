import Foundation
import Testing
@testable import ArchiveReports
@testable import KeyedArchive
import PropertyList

@Suite struct KeyedArchiveDotExporterTests {
    @Test func theGraphIsADigraphWithOneNodePerObjectAndOneEdgePerReference() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-ComplexTest.plist"))
        let dot = KeyedArchiveDotExporter().render(archive)
        #expect(dot.hasPrefix("digraph archive {\n"))
        #expect(dot.hasSuffix("}\n"))
        let nodes = dot.split(separator: "\n").filter { $0.hasPrefix("  o") && !$0.contains("->") }
        #expect(nodes.count == archive.decodedObjects.count)
        // 4 keys + 4 values of the root, 4 array elements, 1 + 1 in the inner dictionary,
        // 2 + 1 for the URLs, and the $top entry.
        #expect(dot.components(separatedBy: " -> ").count - 1 == 18)
        #expect(dot.contains("  top -> o1 [label=\"root\"];\n"))
        #expect(dot.contains("  o6 -> o9 [label=\"[1]\"];\n"))
        #expect(dot.contains("  o1 -> o9 [label=\"\\\"string\\\"\"];\n"), "a dictionary value is labelled by its key")
        #expect(dot.contains("  o16 -> o17 [label=\"NS.base\"];\n"))
        #expect(dot.contains("  o16 [label=\"#16 NSURL\\nhttps://www.swift.org/index.xml\"];\n"))
    }

    @Test func theGraphIsHandedOnInPiecesOfAboutTheChunkSize() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-ComplexTest.plist"))
        var pieces: [String] = []
        KeyedArchiveDotExporter().write(archive, chunkSize: 100) { pieces.append(String(decoding: $0, as: UTF8.self)) }
        #expect(pieces.joined() == KeyedArchiveDotExporter().render(archive))
        #expect(pieces.count > 5)
        // A piece ends after the node or the edges of the object that passed 100 bytes.
        #expect(pieces.allSatisfy { $0.utf8.count < 400 })
    }

    /// Summaries are cut at the limit in characters, not bytes: 40 two-byte letters fit in 48.
    @Test func summariesAreShortenedByCharactersNotBytes() {
        let exporter = KeyedArchiveDotExporter(maximumSummaryLength: 48)
        let accented = String(repeating: "é", count: 40)
        #expect(exporter.shortened(accented) == accented)
        #expect(exporter.shortened(String(repeating: "é", count: 48)) == String(repeating: "é", count: 48))
        #expect(exporter.shortened(String(repeating: "é", count: 49)) == String(repeating: "é", count: 47) + "…")
        #expect(exporter.shortened(String(repeating: "a", count: 60)) == String(repeating: "a", count: 47) + "…")
        #expect(exporter.shortened("short") == "short")
    }

    /// DOT strings are escaped byte by byte; they must be what escaping scalar by scalar gave:
    /// quotes, backslashes and line breaks escaped, other control characters and DEL dropped,
    /// everything else kept.
    @Test(arguments: ["", "#3 NSString", "#4 NSData\n12 bytes <00ff>", "say \"hi\" \\l", "tab\there\u{0}\u{7F}\r",
                      "Zürich 日本語 😀\n\u{85}\u{2028}"])
    func dotStringsAreWhatScalarByScalarEscapingGives(_ text: String) {
        var expected = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": expected += "\\\""
            case "\\": expected += "\\\\"
            case "\n": expected += "\\n"
            default: if scalar.value >= 0x20 && scalar.value != 0x7F { expected.unicodeScalars.append(scalar) }
            }
        }
        expected += "\""
        #expect(KeyedArchiveDotExporter.quoted(text) == expected)
    }

    @Test func quotesBackslashesAndLineBreaksInLabelsAreEscaped() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(3, [("say \"hi\"", .uid(2))]),
            "back\\slash\nnext line",
            TestArchive.classDictionary("Thing"),
        ])
        let dot = KeyedArchiveDotExporter().render(archive)
        #expect(dot.contains("  o1 -> o2 [label=\"say \\\"hi\\\"\"];\n"))
        // The summary quotes the string (\\ and \n escapes), and DOT escapes those backslashes again.
        #expect(dot.contains("  o2 [label=\"#2 NSString\\n\\\"back\\\\\\\\slash\\\\nnext line\\\"\"];\n"))
    }

    @Test func aSelfReferenceIsALoopEdge() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(2, [("next", .uid(1))]),
            TestArchive.classDictionary("Node"),
        ])
        #expect(KeyedArchiveDotExporter().render(archive).contains("  o1 -> o1 [label=\"next\"];\n"))
    }
}
