import Codegen
import Foundation
import PropertyList
import Testing

/// The inference rules, value sets in and shapes out, without compiling anything.
struct PayloadShapeInferrerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: String
        var values: [PropertyListValue]
        var encoding = PayloadEncoding.json
        var expected: PayloadShape
        var testDescription: String { rule }
    }

    static let uuidA = "5C1A3B2E-7D4F-4E21-9A8B-2F0C6D1E3B47"
    static let uuidB = "0b3f6c1e-2d4a-4f5b-8c6d-7e8f9a0b1c2d"

    static let cases: [Case] = [
        // Scalars.
        Case(rule: "booleans are Bool", values: [true, false], expected: .bool),
        Case(rule: "small integers are Int8", values: [1, -5, 127], expected: .integer(.int8)),
        Case(rule: "integers widen to the smallest width that holds all of them", values: [1, 300], expected: .integer(.int16)),
        Case(rule: "integers past Int32 are Int64", values: [1, 5_000_000_000], expected: .integer(.int64)),
        Case(rule: "integers above Int64.max are UInt64", values: [.integer(PropertyListInteger(UInt64.max)), 1], expected: .integer(.uint64)),
        Case(rule: "a negative integer beside one above Int64.max is a Double", values: [.integer(PropertyListInteger(UInt64.max)), -1], expected: .real(.double)),
        Case(rule: "reals that are the shortest spelling of a Float are Float", values: [0.5, 0.176], expected: .real(.float)),
        Case(rule: "reals that need 64 bits are Double", values: [.real(0.1 + 0.2)], expected: .real(.double)),
        Case(rule: "integers and reals together are reals", values: [1, 2.5], expected: .real(.float)),
        Case(rule: "a large integer beside a Float-like real is a Double", values: [16_777_217, 2.5], expected: .real(.double)),
        Case(rule: "strings are String", values: ["a", "b"], expected: .string),
        Case(rule: "strings that are all UUIDs are UUID", values: [.string(uuidA), .string(uuidB)], expected: .uuid),
        Case(rule: "one string that is not a UUID makes the field String", values: [.string(uuidA), "x"], expected: .string),
        Case(rule: "strings that are all absolute URLs are URL", values: ["https://example.com/a", "file:///var/mobile/x.jpg"], expected: .url),
        Case(rule: "a relative path is not a URL", values: ["https://example.com/a", "Documents/photo.jpg"], expected: .string),
        Case(rule: "dates from archives are Date", values: [.date(Date(timeIntervalSinceReferenceDate: 0))], expected: .date),
        Case(rule: "data from archives is Data", values: [.data(Data([1, 2]))], expected: .data),
        // Dates and data as their strategies write them.
        Case(rule: "a date and a number are one Date under deferredToDate",
             values: [.date(Date(timeIntervalSinceReferenceDate: 5)), 12.5], expected: .date),
        Case(rule: "a date and an ISO 8601 string are one Date under iso8601",
             values: [.date(Date(timeIntervalSinceReferenceDate: 5)), "2024-05-01T10:00:00Z"],
             encoding: PayloadEncoding(dateStrategy: .iso8601), expected: .date),
        Case(rule: "ISO 8601 strings alone are Date under iso8601",
             values: ["2024-05-01T10:00:00Z", "2001-01-01T00:00:00Z"], encoding: PayloadEncoding(dateStrategy: .iso8601), expected: .date),
        Case(rule: "ISO 8601 strings are String under deferredToDate", values: ["2024-05-01T10:00:00Z"], expected: .string),
        Case(rule: "a date and a non-date string are String under iso8601, as both are written as strings",
             values: [.date(Date(timeIntervalSinceReferenceDate: 5)), "soon"], encoding: PayloadEncoding(dateStrategy: .iso8601), expected: .string),
        Case(rule: "a date and a string are two kinds under deferredToDate",
             values: [.date(Date(timeIntervalSinceReferenceDate: 5)), "soon"], expected: .oneOf([.date, .string])),
        Case(rule: "data and a base64 string are one Data under base64", values: [.data(Data([1, 2, 3])), "AQID"], expected: .data),
        Case(rule: "base64 strings alone stay String", values: ["AQID", "name"], expected: .string),
        Case(rule: "data and an array of bytes are one Data under deferredToData",
             values: [.data(Data([1])), [1, 255]], encoding: PayloadEncoding(dataStrategy: .deferredToData), expected: .data),
        Case(rule: "dates and numbers are two kinds in a property list",
             values: [.date(Date(timeIntervalSinceReferenceDate: 5)), 12.5], encoding: .propertyList, expected: .oneOf([.real(.float), .date])),
        // Records.
        Case(rule: "objects with the same keys are a record",
             values: [["name": "a", "count": 1], ["name": "b", "count": 2]],
             expected: .record([PayloadField("name", .string), PayloadField("count", .integer(.int8))])),
        Case(rule: "a field present in some values only is optional",
             values: [["eyeColor": "blue", "carsNumber": 2], ["eyeColor": "green", "hairColor": "red"]],
             expected: .record([PayloadField("eyeColor", .string), PayloadField("carsNumber", .optional(.integer(.int8))),
                                PayloadField("hairColor", .optional(.string))])),
        Case(rule: "a field that is null in some values is optional",
             values: [["note": "x"], ["note": .null]], expected: .record([PayloadField("note", .optional(.string))])),
        Case(rule: "a field that is only ever null is an optional of nothing known",
             values: [["note": .null]], expected: .record([PayloadField("note", .optional(.unknown))])),
        Case(rule: "nested objects are records too",
             values: [["owner": ["name": "a"]], ["owner": ["name": "b", "age": 3]]],
             expected: .record([PayloadField("owner", .record([PayloadField("name", .string), PayloadField("age", .optional(.integer(.int8)))]))])),
        Case(rule: "an object present in some values only is an optional record",
             values: [["owner": ["name": "a"]], [:]], expected: .record([PayloadField("owner", .optional(.record([PayloadField("name", .string)])))])),
        // Maps.
        Case(rule: "objects keyed by UUIDs are a map",
             values: [.dictionary(PropertyListDictionary([(.string(uuidA), 1)])), .dictionary(PropertyListDictionary([(.string(uuidB), 2.5)]))],
             expected: .map(.real(.float))),
        Case(rule: "objects keyed by bundle identifiers are a map",
             values: [["com.apple.mobilenotes": ["count": 1]], ["com.microsoft.skype.teams": ["count": 2]]],
             expected: .map(.record([PayloadField("count", .integer(.int8))]))),
        Case(rule: "objects keyed by integers (Codable's [Int: T]) are a map", values: [["1": "a", "22": "b"]], expected: .map(.string)),
        Case(rule: "an object that is always empty is a map of nothing known", values: [[:], [:]], expected: .map(.unknown)),
        Case(rule: "an empty object beside a map is that map", values: [[:], ["com.apple.news": true]], expected: .map(.bool)),
        Case(rule: "more distinct keys than a record holds make a map",
             values: (0..<200).map { i -> PropertyListValue in ["key\(i)": .integer(PropertyListInteger(i))] }, expected: .map(.integer(.int16))),
        // Colors.
        Case(rule: "red, green, blue and alpha numbers are a color",
             values: [["red": 0.176, "green": 0.165, "blue": 0.51, "alpha": 1]], expected: .color(hasColorSpace: false)),
        Case(rule: "a color with a color space in some values is a color with a color space",
             values: [["red": 1, "green": 0, "blue": 0, "alpha": 1], ["red": 1, "green": 0, "blue": 0, "alpha": 1, "colorSpace": "displayP3"]],
             expected: .color(hasColorSpace: true)),
        Case(rule: "a color class with an integer color space is a record, not a color",
             values: [["colorSpace": 1, "red": 0.5, "green": 0.25, "blue": 1, "alpha": 1]],
             expected: .record([PayloadField("colorSpace", .integer(.int8)), PayloadField("red", .real(.float)), PayloadField("green", .real(.float)),
                                PayloadField("blue", .integer(.int8)), PayloadField("alpha", .integer(.int8))])),
        // Arrays.
        Case(rule: "arrays join their elements", values: [["a", "b"], ["c"]], expected: .array(.string)),
        Case(rule: "an array that is always empty has elements of nothing known", values: [[], []], expected: .array(.unknown)),
        Case(rule: "an empty array beside a full one takes its elements", values: [[], [1, 2]], expected: .array(.integer(.int8))),
        Case(rule: "null elements make optional elements", values: [["a", .null]], expected: .array(.optional(.string))),
        // Several kinds.
        Case(rule: "values of different kinds are a oneOf in category order",
             values: ["text", 5, ["k": "v"], true], expected: .oneOf([.bool, .integer(.int8), .string, .record([PayloadField("k", .string)])])),
        Case(rule: "values of different kinds with a null are an optional oneOf",
             values: ["text", 5, .null], expected: .optional(.oneOf([.integer(.int8), .string]))),
        Case(rule: "a record and a map at one position are a map", values: [["name": "x"], ["com.apple.news": "y"]], expected: .map(.string)),
        // Property-list conventions.
        Case(rule: "URL's Codable form in a property list is a URL",
             values: [["relative": "file:///a"]], encoding: .propertyList, expected: .url),
        Case(rule: "the same object in JSON is a record", values: [["relative": "file:///a"]],
             expected: .record([PayloadField("relative", .url)])),
    ]

    @Test(arguments: cases)
    func inferenceFollowsItsRule(_ c: Case) throws {
        #expect(try PayloadShapeInferrer.shape(of: c.values, encoding: c.encoding) == c.expected)
    }

    @Test func anInferrerCountsTheValuesAdded() throws {
        var inferrer = PayloadShapeInferrer()
        try inferrer.add("a")
        try inferrer.add("b")
        #expect(inferrer.valueCount == 2)
        #expect(inferrer.shape == .string)
    }

    @Test func noValueAtAllIsUnknown() {
        #expect(PayloadShapeInferrer().shape == .unknown)
    }

    @Test(arguments: [
        ("5C1A3B2E-7D4F-4E21-9A8B-2F0C6D1E3B47", true), ("42", true), ("-7", true), ("com.apple.mobilenotes", true),
        ("group.com.example.app", true), ("someone@example.com", true), ("https://example.com", true), ("/var/mobile", true),
        ("0123456789abcdef0123", true), ("2024-05-01", true), ("1.2.3", true), ("8:live:.cid.832804f1252ed9b2", true),
        ("8:orgid:66b9d91f-0991-4403-9444-3713542490d8", true),
        ("name", false), ("tintColor", false), ("Home Address", false), ("NS.objects", false), ("UIRed-Double", false),
        ("deadbeefdeadbeef", false), ("", false), ("a.b", false),
    ])
    func dataLikeKeysAreToldFromNames(key: String, isData: Bool) throws {
        let shape = try PayloadShapeInferrer.shape(of: [.dictionary(PropertyListDictionary([(.string(key), "v")]))])
        let isMap = if case .map = shape { true } else { false }
        #expect(isMap == isData)
    }

    @Test func aValueNestedDeeperThanTheLimitIsRefusedAndNotAdded() throws {
        var deep: PropertyListValue = "leaf"
        for _ in 0..<1_000 { deep = .array([deep]) }
        var inferrer = PayloadShapeInferrer()
        try inferrer.add(["a": 1])
        #expect(throws: CodegenError(.tooDeep, "the value nests deeper than 64 levels of arrays and objects, more than a generated type holds")) {
            try inferrer.add(deep)
        }
        #expect(inferrer.valueCount == 1)
        #expect(inferrer.shape == .record([PayloadField("a", .integer(.int8))]))
        var limit: PropertyListValue = "leaf"
        for _ in 0..<64 { limit = .array([limit]) }
        try inferrer.add(limit)
    }
}
