import Foundation
import Testing
import PropertyList

/// Which format `PropertyListReader` reads a document as, from its content and its extension:
/// what `unarchive --to json` writes must come back as JSON, whatever its root.
@Suite struct PropertyListFormatDetectionTests {
    func read(_ text: String, fileExtension: String? = nil) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        try PropertyListReader().read(Data(text.utf8), fileExtension: fileExtension)
    }

    @Test(arguments: [
        ("true", PropertyListValue.bool(true)),
        ("false\n", .bool(false)),
        ("42", .integer(PropertyListInteger(42))),
        ("-1.5", .real(-1.5)),
        (" null ", .null),
        (#""https:\/\/example.com\/a""#, .string("https://example.com/a")),
        (#""caf\u00e9""#, .string("café")),
        ("{}", .dictionary(PropertyListDictionary())),
        ("{ }\n", .dictionary(PropertyListDictionary())),
    ])
    func aLoneJSONValueIsReadAsJSONNotAsAnOpenStepString(text: String, expected: PropertyListValue) throws {
        let (value, format) = try read(text)
        #expect(format == .json)
        #expect(value == expected)
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
