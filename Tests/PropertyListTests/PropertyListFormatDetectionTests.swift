import Foundation
import Testing
import PropertyList

/// Which format `PropertyListReader` reads a document as, from its content and its extension:
/// Core Foundation's formats first, in CF's order, then JSON; a `.json` file as JSON, so that what
/// `unarchive --to json` writes comes back as JSON, whatever its root.
@Suite struct PropertyListFormatDetectionTests {
    func read(_ text: String, fileExtension: String? = nil) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        try PropertyListReader().read(Data(text.utf8), fileExtension: fileExtension)
    }

    @Test(arguments: [
        ("true", PropertyListValue.bool(true), PropertyListValue.string("true")),
        ("false\n", .bool(false), "false"),
        ("42", .integer(PropertyListInteger(42)), "42"),
        ("-1.5", .real(-1.5), "-1.5"),
        (" null ", .null, "null"),
        (#""https:\/\/example.com\/a""#, .string("https://example.com/a"), "https://example.com/a"),
        (#""caf\u00e9""#, .string("café"), "cafu00e9"),  // CF's \u is a "u"
        ("{}", .dictionary(PropertyListDictionary()), .dictionary(PropertyListDictionary())),
    ])
    func aLoneJSONValueIsReadAsCFReadsItAndAsJSONInAJSONFile(text: String, json: PropertyListValue, openStep: PropertyListValue) throws {
        let (value, format) = try read(text)
        #expect(format == .openStep)
        #expect(value == openStep)
        let named = try read(text, fileExtension: "json")
        #expect(named.format == .json)
        #expect(named.value == json)
    }

    @Test(arguments: [
        (#""key" = "value";"#, PropertyListFormat.openStep),
        ("( a, b )", .openStep),
        ("word", .openStep),
        (#""\U00e9""#, .openStep),
        ("{ a = b; }", .openStep),
        ("<0fbd 12>", .openStep),
        (#"{"a":1}"#, .json),
        ("[1, 2]", .json),
    ])
    func openStepTextStaysOpenStep(text: String, expected: PropertyListFormat) throws {
        #expect(try read(text).format == expected)
    }

    @Test func aDotJSONFileIsNeverReadAsOpenStep() throws {
        // Without the extension this is an OpenStep dictionary; a .json file gets JSON's error.
        #expect(try read("{ a = b; }").format == .openStep)
        #expect(throws: PropertyListError.self) { _ = try read("{ a = b; }", fileExtension: "json") }
        #expect(throws: PropertyListError.self) { _ = try read("word", fileExtension: "JSON") }
        #expect(try read("word", fileExtension: "plist").value == .string("word"))
        #expect(try read("[1]", fileExtension: "json").format == .json)
    }

    @Test func binaryAndXMLAreKnownByTheirBytesWhateverTheExtension() throws {
        let value: PropertyListValue = ["a": 1]
        let binary = try PropertyListReader().read(BinaryPropertyListWriter().write(value), fileExtension: "json")
        #expect(binary.format == .binary && binary.value == value)
        let xml = try PropertyListReader().read(try XMLPropertyListWriter().write(value), fileExtension: "json")
        #expect(xml.format == .xml && xml.value == value)
    }
}
