import Foundation
import Testing
@testable import PropertyList

@Suite struct JSONPropertyListWriterTests {
    /// A Codable value and the property list that PropertyListEncoder would make of it.
    struct Sample: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double
        var whole: Double
        var flag: Bool
        var when: Date
        var blob: Data
        var tags: [String]
        var scores: [String: Int]
        var path: String
    }

    static let sample = Sample(
        name: "Ünïcode \"quoted\"\n\t\u{1}", count: -42, ratio: 0.1, whole: 3.0, flag: true,
        when: Date(timeIntervalSinceReferenceDate: 123_456.789), blob: Data([0xFB, 0xFF, 0xBF, 0x00, 0x10]),
        tags: ["a", "b/c"], scores: ["zeta": 1, "Alpha": 2, "beta": 3], path: "/usr/local")

    static var sampleValue: PropertyListValue {
        let s = sample
        return .dictionary(
            PropertyListDictionary([
                ("name", .string(s.name)), ("count", .integer(PropertyListInteger(s.count))), ("ratio", .real(s.ratio)),
                ("whole", .real(s.whole)), ("flag", .bool(s.flag)), ("when", .date(s.when)), ("blob", .data(s.blob)),
                ("tags", .array(s.tags.map { .string($0) })),
                ("scores", .dictionary(PropertyListDictionary(s.scores.map { (.string($0.key), .integer(PropertyListInteger($0.value))) }))),
                ("path", .string(s.path)),
            ]))
    }

    private func text(_ value: PropertyListValue, _ options: JSONWriteOptions = .init()) throws -> String {
        String(decoding: try JSONPropertyListWriter(options: options).write(value), as: UTF8.self)
    }

    private func encoderText<T: Encodable>(_ value: T, configure: (JSONEncoder) -> Void = { _ in }) throws -> String {
        let encoder = JSONEncoder()
        configure(encoder)
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    // MARK: Interop with JSONEncoder and JSONDecoder

    @Test func jsonDecoderDecodesOurOutputIntoTheCodableType() throws {
        let data = try JSONPropertyListWriter().write(Self.sampleValue)
        #expect(try JSONDecoder().decode(Sample.self, from: data) == Self.sample)
    }

    @Test func ourOutputMatchesJSONEncodersWithSortedKeys() throws {
        let ours = try text(Self.sampleValue, JSONWriteOptions(outputFormatting: .sortedKeys))
        let theirs = try encoderText(Self.sample) { $0.outputFormatting = .sortedKeys }
        #expect(ours == theirs)
    }

    @Test func ourPrettyOutputMatchesJSONEncoders() throws {
        let ours = try text(Self.sampleValue, JSONWriteOptions(outputFormatting: [.sortedKeys, .prettyPrinted]))
        let theirs = try encoderText(Self.sample) { $0.outputFormatting = [.sortedKeys, .prettyPrinted] }
        #expect(ours == theirs)
    }

    @Test func emptyCollectionsAreLaidOutAsJSONEncoderLaysThemOut() throws {
        let value: PropertyListValue = ["a": [], "b": .dictionary(PropertyListDictionary()), "c": [[]]]
        struct Empties: Encodable {
            var a: [Int] = []
            var b: [String: Int] = [:]
            var c: [[Int]] = [[]]
        }
        let theirs = try encoderText(Empties()) { $0.outputFormatting = [.sortedKeys, .prettyPrinted] }
        #expect(try text(value, JSONWriteOptions(outputFormatting: [.sortedKeys, .prettyPrinted])) == theirs)
        #expect(try text([], JSONWriteOptions(outputFormatting: .prettyPrinted)) == "[\n\n]")
        #expect(try text([]) == "[]")
    }

    @Test(arguments: [
        [1.0, 0.1, -0.0, 100, 0.5, 1e15, 1e16, 1e20, 1e-7, 2.5e-5, 1e-5, 0.0001, .leastNonzeroMagnitude],
        [1.7976931348623157e308, 123_456_789_012_345_680, 0.30000000000000004, 9_007_199_254_740_992, 1e21, -3.25],
    ])
    func realsAreWrittenAsJSONEncoderWritesThem(reals: [Double]) throws {
        #expect(try text(.array(reals.map { .real($0) })) == (try encoderText(reals)))
    }

    @Test func integersKeepAll128Bits() throws {
        let values: [PropertyListValue] = [
            .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64.max)),
            .integer(PropertyListInteger(Int128.min)), 0, 7,
        ]
        #expect(try text(.array(values)) == "[-9223372036854775808,18446744073709551615,-170141183460469231731687303715884105728,0,7]")
        #expect(try encoderText([Int64.min]) == "[-9223372036854775808]")
    }

    @Test(arguments: [
        "plain", "a/b", "quote \" backslash \\", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1B}\u{1F}\u{7F}",
        "é 😀 \u{2028} \u{FEFF}", "",
    ])
    func stringsAreEscapedAsJSONEncoderEscapesThem(string: String) throws {
        #expect(try text([.string(string)]) == (try encoderText([string])))
        let options = JSONWriteOptions(outputFormatting: .withoutEscapingSlashes)
        #expect(try text([.string(string)], options) == (try encoderText([string]) { $0.outputFormatting = .withoutEscapingSlashes }))
    }

    @Test func keysAreSortedByTheirUTF8BytesAsJSONEncoderSortsThem() throws {
        let keys = ["b", "B", "a10", "a2", "é", "z", "_", "aa", "A", "\u{FFFF}", "\u{10000}"]
        let value = PropertyListValue.dictionary(PropertyListDictionary(keys.enumerated().map { (.string($1), .integer(PropertyListInteger($0))) }))
        let dictionary = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        #expect(try text(value, JSONWriteOptions(outputFormatting: .sortedKeys)) == (try encoderText(dictionary) { $0.outputFormatting = .sortedKeys }))
    }

    @Test(arguments: [
        (JSONWriteOptions.DateEncodingStrategy.deferredToDate, JSONEncoder.DateEncodingStrategy.deferredToDate),
        (.secondsSince1970, .secondsSince1970),
        (.millisecondsSince1970, .millisecondsSince1970),
        (.iso8601, .iso8601),
    ])
    func datesFollowTheStrategyAsJSONEncoderWritesIt(ours: JSONWriteOptions.DateEncodingStrategy, theirs: JSONEncoder.DateEncodingStrategy) throws {
        let dates = [0, 1.75, -0.5, 123_456_789.123, -3_000_000_000, 1e10].map { Date(timeIntervalSinceReferenceDate: $0) }
        let options = JSONWriteOptions(dateEncodingStrategy: ours)
        #expect(try text(.array(dates.map { .date($0) }), options) == (try encoderText(dates) { $0.dateEncodingStrategy = theirs }))
    }

    @Test func dataFollowsTheStrategyAsJSONEncoderWritesIt() throws {
        let blobs = [Data(), Data([1]), Data([1, 2]), Data([0xFF, 0xFE, 0xFD]), Data((0...255).map { UInt8($0) })]
        let values = PropertyListValue.array(blobs.map { .data($0) })
        #expect(try text(values) == (try encoderText(blobs)))
        let deferred = JSONWriteOptions(dataEncodingStrategy: .deferredToData, outputFormatting: .prettyPrinted)
        #expect(try text(values, deferred) == (try encoderText(blobs) { $0.dataEncodingStrategy = .deferredToData; $0.outputFormatting = .prettyPrinted }))
    }

    /// Base64 is written three bytes at a time through a table of character pairs: every length
    /// (each remainder), every byte value and slashes at every place in a group, escaped or not,
    /// give JSONEncoder's text.
    @Test func base64OfEveryLengthAndByteIsJSONEncodersWithSlashesEscapedOrNot() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        // 0xFF 0xFF 0xFF is "////": slashes fill whole groups and parts of them.
        var blobs = (0..<200).map { length in Data((0..<length).map { _ in next() }) }
        blobs += [Data((0...255).map { UInt8($0) }), Data(repeating: 0xFF, count: 30), Data([0xFF, 0x00, 0x3F, 0xFC, 0x0F, 0xFF, 0xBF])]
        let values = PropertyListValue.array(blobs.map { .data($0) })
        #expect(try text(values) == (try encoderText(blobs)))
        let unescaped = JSONWriteOptions(outputFormatting: .withoutEscapingSlashes)
        #expect(try text(values, unescaped) == (try encoderText(blobs) { $0.outputFormatting = .withoutEscapingSlashes }))
    }

    /// Long data goes through the vector encoder (CBase64) 24 bytes at a time where the CPU has
    /// AVX2, and the rest through the table: every length around its block and read edges,
    /// slashes at every place of a block (none, some, all), escaped or not, give JSONEncoder's text.
    @Test func base64OfLongDataIsJSONEncodersAroundEveryBlockEdgeWithSlashesEscapedOrNot() throws {
        var seed: UInt64 = 0xD1B5_4A32_D192_ED03
        func next() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        var blobs = (0..<150).map { length in Data((0..<(length + 20)).map { _ in next() }) }
        blobs += [1_000, 4_099, 65_536 + 7].map { length in Data((0..<length).map { _ in next() }) }
        // All slashes, slashes in every other group, and bytes whose characters are all
        // letters (0x00…), over several blocks.
        blobs += [Data(repeating: 0xFF, count: 100), Data((0..<240).map { $0 % 6 < 3 ? 0xFF : 0x00 }), Data(count: 96)]
        let values = PropertyListValue.array(blobs.map { .data($0) })
        #expect(try text(values) == (try encoderText(blobs)))
        let unescaped = JSONWriteOptions(outputFormatting: .withoutEscapingSlashes)
        #expect(try text(values, unescaped) == (try encoderText(blobs) { $0.outputFormatting = .withoutEscapingSlashes }))
    }

    @Test func jsonDecoderReadsOtherDateStrategiesBack() throws {
        struct Stamp: Codable, Equatable { var at: Date }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for (ours, theirs) in [
            (JSONWriteOptions.DateEncodingStrategy.iso8601, JSONDecoder.DateDecodingStrategy.iso8601),
            (.secondsSince1970, .secondsSince1970), (.millisecondsSince1970, .millisecondsSince1970),
        ] {
            let data = try JSONPropertyListWriter(options: JSONWriteOptions(dateEncodingStrategy: ours)).write(["at": .date(date)])
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = theirs
            #expect(try decoder.decode(Stamp.self, from: data) == Stamp(at: date))
        }
    }

    // MARK: Non-conforming reals

    @Test func nanIsRefusedWithItsKeyPath() {
        let value: PropertyListValue = ["outer": ["list": [1.0, .real(.nan)]]]
        #expect {
            try JSONPropertyListWriter().write(value)
        } throws: { error in
            guard let error = error as? PropertyListError else { return false }
            return error.code == .unrepresentable && error.keyPath == ["outer", "list", "[1]"]
        }
    }

    @Test func infiniteDatesAreRefusedToo() {
        #expect(throws: PropertyListError.self) { try JSONPropertyListWriter().write(.date(Date(timeIntervalSinceReferenceDate: .infinity))) }
        let iso = JSONWriteOptions(dateEncodingStrategy: .iso8601)
        #expect(throws: PropertyListError.self) { try JSONPropertyListWriter(options: iso).write(.date(Date(timeIntervalSinceReferenceDate: .nan))) }
    }

    @Test func nonConformingRealsBecomeTheChosenStrings() throws {
        let options = JSONWriteOptions(nonConformingFloatEncodingStrategy: .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan"))
        let reals: [Double] = [.nan, .infinity, -.infinity, 1]
        let theirs = try encoderText(reals) {
            $0.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        }
        #expect(try text(.array(reals.map { .real($0) }), options) == theirs)
    }

    // MARK: Values JSON lacks

    @Test func uidsAreWrittenAsCFUIDObjects() throws {
        #expect(try text(["$top": ["root": .uid(1)]]) == #"{"$top":{"root":{"CF$UID":1}}}"#)
        #expect(try text(.uid(7), JSONWriteOptions(outputFormatting: .prettyPrinted)) == "{\n  \"CF$UID\" : 7\n}")
    }

    @Test func setsAreArraysAndNullIsNull() throws {
        #expect(try text(.set(["a", 1])) == #"["a",1]"#)
        #expect(try text([.null]) == "[null]")
    }

    @Test func dictionariesWithIntegerKeysAreObjectsAsCodableWritesThem() throws {
        let value = PropertyListValue.dictionary(PropertyListDictionary([(2, "b"), (10, "a")]))
        let ours = try text(value, JSONWriteOptions(outputFormatting: .sortedKeys))
        #expect(ours == (try encoderText([2: "b", 10: "a"]) { $0.outputFormatting = .sortedKeys }))
        #expect(ours == #"{"10":"a","2":"b"}"#)
    }

    @Test func dictionariesWithOtherKeysAreFlatArraysAsCodableWritesThem() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1.25)
        let value = PropertyListValue.dictionary(PropertyListDictionary([(.date(date), "a")]))
        #expect(try text(value) == (try encoderText([date: "a"])))
        let mixed = PropertyListValue.dictionary(PropertyListDictionary([("s", 1), (2, "t"), (.data(Data([1])), .bool(true))]))
        #expect(try text(mixed) == #"["s",1,2,"t","AQ==",true]"#)
    }

    @Test func loneSurrogatesAreWrittenAsEscapesAndReadBack() throws {
        let value = PropertyListValue.invalidUTF16String([0x61, 0xD800, 0xD83D, 0xDE00, 0x2F, 0xDC00])
        let json = try JSONPropertyListWriter().write([value])
        #expect(String(decoding: json, as: UTF8.self) == #"["a\ud800😀\/\udc00"]"#)
        var options = PropertyListReadOptions()
        options.preservesInvalidUTF16 = true
        #expect(try JSONPropertyListReader(options: options).read(json) == [value])
    }

    @Test func whatWeWriteWeReadBack() throws {
        let value: PropertyListValue = [
            "s": "x/y \u{1} é", "i": -5, "r": 2.5, "b": false, "n": .null, "a": [[], ["k": "v"]], "big": .integer(PropertyListInteger(UInt64.max)),
        ]
        for formatting in [JSONWriteOptions.OutputFormatting(), .prettyPrinted, [.prettyPrinted, .sortedKeys]] {
            let data = try JSONPropertyListWriter(options: JSONWriteOptions(outputFormatting: formatting)).write(value)
            #expect(try JSONPropertyListReader().read(data) == value)
        }
    }

    @Test func aDeepValueIsWritten() throws {
        var value: PropertyListValue = "leaf"
        for _ in 0..<512 { value = [value] }
        let data = try JSONPropertyListWriter(options: JSONWriteOptions(outputFormatting: .prettyPrinted)).write(value)
        #expect(try JSONPropertyListReader().read(data) == value)
    }
}
