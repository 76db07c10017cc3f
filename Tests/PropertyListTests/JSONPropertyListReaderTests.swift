import Foundation
import Testing
@testable import PropertyList

@Suite struct JSONPropertyListReaderTests {
    private func read(_ text: String, options: PropertyListReadOptions = .default) throws(PropertyListError) -> PropertyListValue {
        try JSONPropertyListReader(options: options).read(Data(text.utf8))
    }

    private func integer(_ v: Int128) -> PropertyListValue { .integer(PropertyListInteger(v)) }

    @Test func objectsArraysAndLiteralsReadAsPropertyListValues() throws {
        let value = try read(#" { "b": [1, -2.5, true, false, null], "a": {"nested": "yes"}, "e": [], "o": {} } "#)
        let entries: [(PropertyListValue, PropertyListValue)] = [
            ("b", [1, -2.5, true, false, .null]),
            ("a", ["nested": "yes"]),
            ("e", []),
            ("o", .dictionary(PropertyListDictionary())),
        ]
        let expected = PropertyListValue.dictionary(PropertyListDictionary(entries))
        #expect(value == expected)
    }

    @Test func objectsKeepTheirKeyOrderAndDuplicatesWhenAskedTo() throws {
        // By default a repeated key keeps its last value, as JSONSerialization does (DuplicateKeyTests).
        var options = PropertyListReadOptions()
        options.duplicateKeys = .keepAll
        let d = try #require(try JSONPropertyListReader(options: options).read(Data(#"{"z":1,"a":2,"z":3}"#.utf8)).dictionaryValue)
        #expect(d.keys == ["z", "a", "z"])
    }

    @Test func aScalarMayBeTheRoot() throws {
        #expect(try read("42") == 42)
        #expect(try read(#" "text" "#) == "text")
        #expect(try read("null") == .null)
    }

    @Test(arguments: [
        ("0", Int128(0)),
        ("9223372036854775807", Int128(Int64.max)),
        ("-9223372036854775808", Int128(Int64.min)),
        ("18446744073709551615", Int128(UInt64.max)),
        ("170141183460469231731687303715884105727", Int128.max),
        ("-170141183460469231731687303715884105728", Int128.min),
    ])
    func integersThatFit128BitsReadAsIntegers(text: String, expected: Int128) throws {
        #expect(try read(text) == integer(expected))
    }

    @Test(arguments: [
        ("170141183460469231731687303715884105728", 1.7014118346046923e38),  // one past Int128.max
        ("1.5", 1.5),
        ("-0.0", -0.0),
        ("1e3", 1000),
        ("1E+2", 100),
        ("2.5e-3", 0.0025),
        ("0.1", 0.1),
        ("1e-400", 0),  // underflows to zero, as JSONDecoder reads it
    ])
    func otherNumbersReadAsReals(text: String, expected: Double) throws {
        #expect(try read(text) == .real(expected))
    }

    @Test func minusZeroKeepsItsSign() throws {
        // JSONEncoder writes -0.0 as "-0"; reading it as the integer 0 would lose the sign.
        let value = try read("-0")
        guard case .real(let r) = value else { Issue.record("expected a real, got \(value)"); return }
        #expect(r == 0 && r.sign == .minus)
        #expect(try JSONPropertyListWriter().write(value) == Data("-0".utf8))
    }

    @Test func escapesDecodeIncludingSurrogatePairs() throws {
        #expect(try read(#""\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 \u0000""#) == "\" \\ / \u{8} \u{C} \n \r \t é 😀 \u{0}")
    }

    @Test func aLoneSurrogateIsKeptOnlyWhenAsked() throws {
        #expect(throws: PropertyListError.self) { try read(#""a\uD800b""#) }
        var options = PropertyListReadOptions()
        options.preservesInvalidUTF16 = true
        #expect(try read(#""a\uD800b""#, options: options) == .invalidUTF16String([0x61, 0xD800, 0x62]))
        #expect(try read(#"{"\uDC00": 1}"#, options: options) == .dictionary(PropertyListDictionary([(.invalidUTF16String([0xDC00]), 1)])))
    }

    @Test(arguments: [String.Encoding.utf8, .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian, .utf16])
    func textIsReadInEveryUnicodeEncodingJSONDecoderReads(encoding: String.Encoding) throws {
        let data = try #require(#"{"clé": ["😀"]}"#.data(using: encoding))
        #expect(try JSONPropertyListReader().read(data) == ["clé": ["😀"]])
    }

    @Test func whatJSONSerializationReadsWeReadAlike() throws {
        let text = #"{"name":"Archivist","tags":["a","b"],"count":3,"ratio":0.25,"ok":true,"nested":{"x":[1,[2,[3]]]}}"#
        let ours = try read(text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        #expect(theirs?["name"] as? String == ours["name"]?.stringValue)
        #expect((theirs?["tags"] as? [String])?.count == ours["tags"]?.arrayValue?.count)
        #expect(ours["ratio"] == .real(0.25))
        #expect(ours["count"] == 3)
    }

    // MARK: Refused input

    struct Corrupt: Sendable, CustomTestStringConvertible {
        let why: String
        let bytes: [UInt8]
        let code: PropertyListError.Code
        var testDescription: String { why }

        init(_ why: String, _ text: String, _ code: PropertyListError.Code = .malformed) {
            self.why = why
            self.bytes = Array(text.utf8)
            self.code = code
        }

        init(_ why: String, bytes: [UInt8], _ code: PropertyListError.Code = .malformed) {
            self.why = why
            self.bytes = bytes
            self.code = code
        }
    }

    static let corrupt: [Corrupt] = [
        Corrupt("empty input", "", .truncated),
        Corrupt("only whitespace", " \n\t ", .truncated),
        Corrupt("a leading zero", "[01]"),
        Corrupt("a leading zero after a minus", "-01"),
        Corrupt("a minus with no digits", "-"),
        Corrupt("a plus sign", "+1"),
        Corrupt("a fraction with no digits", "1."),
        Corrupt("a fraction with no integer part", ".5"),
        Corrupt("an exponent with no digits", "1e+"),
        Corrupt("a number too large for a Double", "1e400", .invalidValue),
        Corrupt("NaN, which JSON lacks", "NaN"),
        Corrupt("Infinity, which JSON lacks", "[-Infinity]"),
        Corrupt("a trailing comma in an array", "[1,]"),
        Corrupt("a trailing comma in an object", #"{"a":1,}"#),
        Corrupt("a comma before the first element", "[,1]"),
        Corrupt("two values without a comma", "[1 2]"),
        Corrupt("a key that is not a string", "{1:2}"),
        Corrupt("a single-quoted string", "['a']"),
        Corrupt("a missing colon", #"{"a" 1}"#),
        Corrupt("a missing value", #"{"a":}"#),
        Corrupt("a comment", "[1] // one"),
        Corrupt("a second root value", "{} {}"),
        Corrupt("a misspelt literal", "[tru]"),
        Corrupt("a literal cut short at the end", "nul", .malformed),
        Corrupt("an unterminated string", #"["abc"#, .truncated),
        Corrupt("an array that never closes", "[1, [2]", .truncated),
        Corrupt("an object that never closes", #"{"a": 1"#, .truncated),
        Corrupt("an escape JSON does not define", #"["\x41"]"#),
        Corrupt("a \\u escape with three digits", #"["\u004"]"#),
        Corrupt("a \\u escape with a non-hex digit", #"["\u00g1"]"#),
        Corrupt("a lone low surrogate", #"["\uDC00"]"#, .invalidValue),
        Corrupt("a high surrogate followed by a non-surrogate", #"["\uD800\u0041"]"#, .invalidValue),
        Corrupt("an unescaped tab inside a string", "[\"a\tb\"]"),
        Corrupt(
            "an unescaped NUL inside a string",
            bytes: [
                0x5B, 0x22,  // ["
                0x00,  // NUL, which must be written \u0000
                0x22, 0x5D,  // "]
            ]),
        Corrupt(
            "bytes that are not UTF-8",
            bytes: [
                0x22,  // "
                0xC3, 0x28,  // a two-byte lead followed by ASCII
                0x22,  // "
            ]),
        Corrupt(
            "an overlong UTF-8 encoding of '/'",
            bytes: [
                0x22,  // "
                0xC0, 0xAF,  // '/' in two bytes, which UTF-8 forbids
                0x22,  // "
            ]),
        Corrupt(
            "a UTF-8 encoded surrogate",
            bytes: [
                0x22,  // "
                0xED, 0xA0, 0x80,  // U+D800, which UTF-8 forbids
                0x22,  // "
            ]),
    ]

    @Test(arguments: corrupt)
    func corruptInputIsRefused(_ input: Corrupt) {
        #expect {
            try JSONPropertyListReader().read(Data(input.bytes))
        } throws: { error in
            (error as? PropertyListError)?.code == input.code
        }
    }

    @Test func errorsGiveTheLineColumnAndKeyPath() {
        let text = """
            {
              "items": [
                {"name": "a"},
                {"name": 01}
              ]
            }
            """
        #expect {
            try read(text)
        } throws: { error in
            guard let error = error as? PropertyListError else { return false }
            return error.location == .lineColumn(line: 4, column: 14) && error.keyPath == ["items", "[1]", "name"]
        }
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect {
            try read(#"["é😀", x]"#)
        } throws: { error in
            (error as? PropertyListError)?.location == .lineColumn(line: 1, column: 8)
        }
    }

    // MARK: Limits

    @Test(arguments: [(depth: 3, limit: 3, accepted: true), (4, 3, false), (512, 512, true), (513, 512, false)])
    func nestingDeeperThanTheLimitIsRefused(depth: Int, limit: Int, accepted: Bool) {
        var options = PropertyListReadOptions()
        options.maximumDepth = limit
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let result = Result { () throws(PropertyListError) in try read(text, options: options) }
        switch result {
        case .success: #expect(accepted)
        case .failure(let error): #expect(!accepted && error.code == .limitExceeded)
        }
    }

    @Test func aDeepDocumentIsRefusedWithoutExhaustingTheStack() {
        #expect {
            try read(String(repeating: #"{"a":["#, count: 200_000))
        } throws: { error in
            (error as? PropertyListError)?.code == .limitExceeded
        }
    }

    @Test(arguments: [(limit: 5, accepted: true), (4, false)])
    func moreValuesThanTheLimitAreRefused(limit: Int, accepted: Bool) {
        var options = PropertyListReadOptions()
        options.maximumObjectCount = limit
        // An object, its key, and an array of two numbers: five values.
        let result = Result { () throws(PropertyListError) in try read(#"{"k": [1, 2]}"#, options: options) }
        switch result {
        case .success: #expect(accepted)
        case .failure(let error): #expect(!accepted && error.code == .limitExceeded)
        }
    }
}
