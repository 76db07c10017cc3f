import Foundation
import Testing
@testable import PropertyList

/// A dictionary of string keys, for the arguments of tests.
private func cfDictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
    .dictionary(PropertyListDictionary(entries.map { (PropertyListValue.string($0.0), $0.1) }))
}

@Suite struct OpenStepPropertyListReaderTests {
    private func read(_ text: String, options: PropertyListReadOptions = .default) throws(PropertyListError) -> PropertyListValue {
        try OpenStepPropertyListReader(options: options).read(Data(text.utf8))
    }

    private static func dictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
        .dictionary(PropertyListDictionary(entries.map { (PropertyListValue.string($0.0), $0.1) }))
    }

    // MARK: Apple's dialect

    @Test func dictionariesArraysAndStringsReadAsAppleReadsThem() throws {
        let value = try read(
            """
            {
                name = "Archivist";
                'single' = 'quoted';
                path = /usr/local/bin:$PATH.d-1_x;
                list = ( a, "b c", ( ), { } );
                empty = "";
            }
            """)
        #expect(
            value
                == Self.dictionary([
                    ("name", "Archivist"), ("single", "quoted"), ("path", "/usr/local/bin:$PATH.d-1_x"),
                    ("list", ["a", "b c", [], .dictionary(PropertyListDictionary())]), ("empty", ""),
                ]))
    }

    @Test func dictionariesKeepTheOrderAndDuplicatesAsReadWhenAskedTo() throws {
        // By default a repeated key keeps its last value, as CF does (DuplicateKeyTests).
        var options = PropertyListReadOptions()
        options.duplicateKeys = .keepAll
        let value = try OpenStepPropertyListReader(options: options).read(Data("{ z = 1; a = 2; z = 3; }".utf8))
        let d = try #require(value.dictionaryValue)
        #expect(d.keys == ["z", "a", "z"])
        #expect(d["z"] == "3")
    }

    @Test func everyScalarInAppleDialectIsAString() throws {
        #expect(try read("( 1, 2.5, YES, 2020-01-01 )") == ["1", "2.5", "YES", "2020-01-01"])
    }

    @Test func arraysMayEndWithAComma() throws {
        #expect(try read("( a, b, )") == ["a", "b"])
    }

    @Test func aKeyFollowedBySemicolonIsItsOwnValue() throws {
        #expect(try read("{ Hello; World = Earth; }") == Self.dictionary([("Hello", "Hello"), ("World", "Earth")]))
    }

    @Test func aStringsFileIsADictionaryWithoutBraces() throws {
        let value = try read(
            """
            /* Localizable.strings */
            "greeting" = "Bonjour";
            farewell = "Au revoir"; // unquoted key
            "shortcut";
            """)
        #expect(value == Self.dictionary([("greeting", "Bonjour"), ("farewell", "Au revoir"), ("shortcut", "shortcut")]))
    }

    @Test func aLoneStringIsAString() throws {
        #expect(try read("  \"just this\"  ") == "just this")
        #expect(try read("word") == "word")
    }

    @Test func whitespaceAndCommentsAloneAreAnEmptyDictionary() throws {
        #expect(try read(" \n// nothing\n/* at all */ ") == .dictionary(PropertyListDictionary()))
    }

    @Test func hexDataMayHoldWhitespaceBetweenBytes() throws {
        #expect(try read("<0fbd 12\n\tAB\r\nff>") == .data(Data([0x0F, 0xBD, 0x12, 0xAB, 0xFF])))
        #expect(try read("<>") == .data(Data()))
    }

    @Test func commentsMaySitBetweenAnyTokens() throws {
        let value = try read("{/*a*/\"k\"/*b*/=/*c*/'v'/*d*/;// e\n}//f")
        #expect(value == Self.dictionary([("k", "v")]))
    }

    @Test func slashesRightAfterAnUnquotedStringBelongToIt() throws {
        // '/' is an unquoted-string character, so CF reads "a//b" and "c/" here, not comments.
        #expect(try read("( a//b, c/ )") == ["a//b", "c/"])
    }

    @Test func lineAndParagraphSeparatorsAreWhitespace() throws {
        #expect(try read("(a,\u{2028}b\u{2029})") == ["a", "b"])
    }

    // MARK: Escapes

    @Test(arguments: [
        (#""\n\t\r\a\b\f\v""#, "\n\t\r\u{07}\u{08}\u{0C}\u{0B}"),
        (#""\\ \" \'""#, "\\ \" '"),
        (#"'\''"#, "'"),
        (#""\101\102\103""#, "ABC"),  // octal, three digits
        (#""\12x""#, "\nx"),  // octal stops at a non-octal digit
        (#""\0012""#, "\u{01}2"),  // at most three octal digits
        (#""\351""#, "\u{D8}"),  // 0xE9 is Ø in NeXTSTEP, not é as in Latin-1
        (#""\200""#, "\u{A0}"),  // 0x80 is a no-break space in NeXTSTEP
        (#""\777""#, "\u{0}"),  // 0o777 wraps to 0xFF, which NeXTSTEP leaves undefined
        (#""\U00e9\u00E9""#, "éu00E9"),  // CF knows \U only: \u is a "u"
        (#""\U41\U4""#, "A\u{04}"),  // one to four hex digits
        (#""\UD83D\UDE00""#, "😀"),  // two escapes form a surrogate pair
        ("\"a\\\nb\"", "a\nb"),  // a backslash before a newline keeps the newline
    ])
    func escapesDecodeAsCFDecodesThem(source: String, expected: String) throws {
        #expect(try read(source) == .string(expected))
    }

    @Test func aLoneSurrogateEscapeIsKeptAsCFKeepsIt() throws {
        #expect(try read(#""a\UD800b""#) == .invalidUTF16String([0x61, 0xD800, 0x62]))
        #expect(try read(#""\UDE00\UD83D""#) == .invalidUTF16String([0xDE00, 0xD83D]))
    }

    @Test func aLoneSurrogateEscapeIsRefusedWhenAsked() {
        var options = PropertyListReadOptions()
        options.preservesInvalidUTF16 = false
        let error = #expect(throws: PropertyListError.self) { try read(#""a\UD800b""#, options: options) }
        #expect(error?.code == .invalidValue)
    }

    @Test func octalEscapesAboveASCIIFollowFoundationsNeXTSTEPTable() {
        for byte in UInt8(0x80)...UInt8(0xFF) {
            let foundation = String(bytes: [byte], encoding: .nextstep)?.unicodeScalars.first?.value ?? 0
            #expect(CoreFoundationText.nextStepToUnicode(byte) == foundation, "byte 0x\(String(byte, radix: 16))")
        }
    }

    // MARK: Non-ASCII text

    @Test func unquotedStringsAreASCIIAsInCF() {
        // CF's unquoted characters are ASCII letters, digits and _$/:.- (CFOldStylePList.c).
        #expect(throws: PropertyListError.self) { try read("{ not_quoted = クオート無し; }", options: .coreFoundation) }
    }

    /// Without a mark, CF reads UTF-8; a NUL in the first two bytes makes it skip those two
    /// bytes and read UTF-16 in the machine's order (little-endian): the first character is lost.
    @Test(arguments: [
        (String.Encoding.utf8, true), (.utf16BigEndian, false), (.utf16LittleEndian, true), (.utf32BigEndian, false), (.utf32LittleEndian, false),
    ])
    func textWithoutAByteOrderMarkIsReadAsCFReadsIt(encoding: String.Encoding, read expected: Bool) throws {
        let text = "{ \"clé\" = \"värde 😀\"; }"
        let data = try #require(text.data(using: encoding))
        let result = Result { () throws(PropertyListError) in try OpenStepPropertyListReader(options: .coreFoundation).read(data) }
        switch result {
        // In UTF-16LE, the lost "{" leaves a strings file whose "}" CF ignores.
        case .success(let value): #expect(expected && value == Self.dictionary([("clé", "värde 😀")]))
        case .failure: #expect(!expected)
        }
    }

    @Test(arguments: [
        [UInt8]([0xEF, 0xBB, 0xBF]) + Array("(\"é\")".utf8),  // UTF-8 with its mark
        [0xFE, 0xFF, 0x00, 0x28, 0x00, 0x22, 0x00, 0xE9, 0x00, 0x22, 0x00, 0x29],  // UTF-16BE with its mark
        [0xFF, 0xFE, 0x28, 0x00, 0x22, 0x00, 0xE9, 0x00, 0x22, 0x00, 0x29, 0x00],  // UTF-16LE with its mark
        [0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x28, 0, 0, 0, 0x22, 0, 0, 0, 0xE9, 0, 0, 0, 0x22, 0, 0, 0, 0x29],  // UTF-32BE with its mark
        [0xFF, 0xFE, 0x00, 0x00, 0x28, 0, 0, 0, 0x22, 0, 0, 0, 0xE9, 0, 0, 0, 0x22, 0, 0, 0, 0x29, 0, 0, 0],  // UTF-32LE with its mark
    ])
    func textIsReadInEveryUnicodeEncodingWithAByteOrderMark(bytes: [UInt8]) throws {
        #expect(try OpenStepPropertyListReader().read(Data(bytes)) == ["é"])
    }

    /// A strings file whose first key holds a lone surrogate is a strings file all the same
    /// (found by FuzzParity: CF reads it, and the key and value keep their units).
    @Test func aStringsFileWhoseFirstKeyHoldsALoneSurrogateIsRead() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]  // UTF-16LE byte-order mark
        for unit in Array("\"J".utf16) + [0xDFFF] + Array("K\";\r\n".utf16) { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let key = PropertyListValue.invalidUTF16String(Array("J".utf16) + [0xDFFF] + Array("K".utf16))
        #expect(try OpenStepPropertyListReader().read(Data(bytes)) == .dictionary(PropertyListDictionary([(key, key)])))
        #expect(CoreFoundationVerdict.reads(Data(bytes)) != false)
    }

    /// CF's UTF-32 converter refuses a surrogate code point, alone or as half of a pair written
    /// as two UTF-32 units (found by FuzzParity; Tests/FuzzRegressions/FuzzParity/
    /// difference-utf32-surrogate-code-point).
    @Test(arguments: [[UInt32(0xD97E)], [0xDC00], [0xD83D, 0xDE00]])
    func utf32HoldingASurrogateCodePointIsRefusedAsCFRefusesIt(_ surrogates: [UInt32]) {
        for bigEndian in [false, true] {
            var bytes: [UInt8] = bigEndian ? [0x00, 0x00, 0xFE, 0xFF] : [0xFF, 0xFE, 0x00, 0x00]
            for v in Array("(\"a".unicodeScalars.map(\.value)) + surrogates + Array("\")".unicodeScalars.map(\.value)) {
                bytes += bigEndian ? withUnsafeBytes(of: v.bigEndian, Array.init) : withUnsafeBytes(of: v.littleEndian, Array.init)
            }
            #expect(throws: PropertyListError.self) { try PropertyListReader(options: .coreFoundation).read(Data(bytes)) }
            if let cf = CoreFoundationVerdict.reads(Data(bytes)) { #expect(!cf) }
        }
        // The same character as one code point is read.
        var pair: [UInt8] = [0xFF, 0xFE, 0x00, 0x00]
        for v in Array("(\"".unicodeScalars.map(\.value)) + [0x1F600] + Array("\")".unicodeScalars.map(\.value)) { pair += withUnsafeBytes(of: v.littleEndian, Array.init) }
        #expect((try? OpenStepPropertyListReader(options: .coreFoundation).read(Data(pair))) == ["😀"])
    }

    // MARK: GNUstep

    @Test func gnustepTypedValuesAreRefusedAsCFRefusesThem() {
        // `<*I87>` and `<[AAEC]>` are no hex data to CF.
        for text in ["( <*I87> )", "<*BY>", "( <[AAEC]> )", "<*D2011-11-28 09:21:30 +0000>"] {
            #expect(throws: PropertyListError.self, "\(text)") { try read(text, options: .coreFoundation) }
        }
    }

    // MARK: What CF reads that a stricter reader would not

    @Test(arguments: [
        ("a /* comment that never closes, which CF ends at the end of the text", "{ a = b; } /* trailing", cfDictionary([("a", "b")])),
        ("the same, with NULs inside, as dd-plist issue 73 has it", "/*\u{0}\u{0}/", .dictionary(PropertyListDictionary())),
        ("a stray brace after a strings file, which CF does not read past its last entry", "\"a\" = \"b\"; }", cfDictionary([("a", "b")])),
        ("a raw NUL inside a quoted string", "( \"a\u{0}b\" )", ["a\u{0}b"]),
        ("an escape with no meaning, which is its character, as in dd-plist issue 88", #"{ "Hello" = "Worl\d"; }"#, cfDictionary([("Hello", "World")])),
        ("an element that cannot be read, which ends an array quietly", "( <0)", []),
        ("an unterminated quote as a key of a strings file, which ends its entries", "a = b; \"c", cfDictionary([("a", "b")])),
        ("an empty array one level past the depth cap", String(repeating: "(", count: 514) + String(repeating: ")", count: 514), .null),
    ] as [(String, String, PropertyListValue)])
    func whatCFReadsIsRead(_ why: String, _ text: String, _ expected: PropertyListValue) throws {
        let value = try read(text, options: { var o = PropertyListReadOptions(); o.maximumDepth = 513; return o }())
        if expected != .null { #expect(value == expected, "\(why)") }
    }

    // MARK: Refused input

    struct Corrupt: Sendable, CustomTestStringConvertible {
        let why: String
        let bytes: [UInt8]
        let code: PropertyListError.Code
        var testDescription: String { why }

        init(_ why: String, _ text: String, _ code: PropertyListError.Code) {
            self.why = why
            self.bytes = Array(text.utf8)
            self.code = code
        }

        init(_ why: String, bytes: [UInt8], _ code: PropertyListError.Code) {
            self.why = why
            self.bytes = bytes
            self.code = code
        }
    }

    static let corrupt: [Corrupt] = [
        Corrupt("empty input", "", .truncated),
        Corrupt("a string whose quote never closes", #"{ a = "b; }"#, .truncated),
        Corrupt("the last entry without its ';', which CF also refuses", "{ a = b }", .malformed),
        Corrupt("a key with neither '=' nor ';'", "{ a b; }", .malformed),
        Corrupt("a value missing after '='", "{ a = ; }", .malformed),
        Corrupt("two values in an array without a comma", "( a b )", .malformed),
        Corrupt("an array that never closes", "( a, b", .truncated),
        Corrupt("a dictionary that never closes", "{ a = b;", .truncated),
        Corrupt("a second root value", "{ a = b; } { }", .malformed),
        Corrupt("a collection as a key", "{ (a) = b; }", .malformed),
        Corrupt("a raw NUL byte after an unquoted string", bytes: Array("( ab".utf8) + [0x00, 0x29], .malformed),
        Corrupt("a backslash as the last character", #"( "a\"#, .truncated),
        Corrupt("an odd number of hex digits", "<0fb>", .malformed),
        Corrupt("a letter that is not hex in data", "<0g>", .malformed),
        Corrupt("data that never closes, as in libplist's oplist fuzzer", "(<", .truncated),
        Corrupt("a '+' in an unquoted string, which CF does not accept", "( a+b )", .malformed),
        Corrupt("a GNUstep typed value, which CF does not read", "<*I12>", .malformed),
        Corrupt("a comma where an array's first value should be, as in dd-plist issue 76", "(((,((<*R\u{1}\u{11}0", .malformed),
        Corrupt("GNUstep's base64 data, which CF does not read", "<[AAEC]>", .malformed),
        Corrupt("a control character where a value should be", "( \u{7F} )", .malformed),
        Corrupt("a tag-like token, as in dd-plist's fuzz crash", "  \r\t<q/>", .malformed),
        Corrupt(
            "bytes that are not UTF-8",
            bytes: [
                0x28, 0x3C,  // "(<"
                0x98,  // a continuation byte with no lead byte
                0x2C, 0x98,  // ",", and another
            ], .malformed),
        Corrupt(
            "UTF-16 with a lone surrogate",
            bytes: [
                0xFE, 0xFF,  // UTF-16BE byte-order mark
                0x00, 0x28,  // "("
                0xD8, 0x00,  // a high surrogate with no low one after it
                0x00, 0x29,  // ")"
            ], .malformed),
        Corrupt(
            "UTF-16 cut in the middle of a code unit",
            bytes: [
                0xFF, 0xFE,  // UTF-16LE byte-order mark
                0x28, 0x00,  // "("
                0x29,  // half of ")", which CF drops: the array never closes
            ], .truncated),
    ]

    @Test(arguments: corrupt)
    func corruptInputIsRefused(_ input: Corrupt) {
        #expect {
            try OpenStepPropertyListReader(options: .coreFoundation).read(Data(input.bytes))
        } throws: { error in
            (error as? PropertyListError)?.code == input.code
        }
    }

    @Test func errorsGiveTheLineColumnAndKeyPath() {
        let text = """
            {
              outer = {
                list = ( a, b, "unterminated );
              };
            }
            """
        #expect {
            try read(text)
        } throws: { error in
            guard let error = error as? PropertyListError else { return false }
            return error.location == .lineColumn(line: 3, column: 20) && error.keyPath == ["outer", "list", "[2]"]
                && error.code == .truncated
        }
    }

    @Test func aMissingSemicolonIsReportedWhereTheNextTokenStarts() {
        #expect {
            try read("{\n  a = b\n  c = d;\n}")
        } throws: { error in
            (error as? PropertyListError)?.location == .lineColumn(line: 3, column: 3)
        }
    }

    // MARK: Limits

    /// CF refuses a value deeper than its cap, except that an array whose first element would be
    /// too deep is read empty when it closes at once: one more level of empty array is read.
    @Test(arguments: [(depth: 3, limit: 3, accepted: true), (4, 3, true), (5, 3, false), (513, 512, true), (514, 512, false)])
    func nestingDeeperThanTheLimitIsRefused(depth: Int, limit: Int, accepted: Bool) {
        var options = PropertyListReadOptions()
        options.maximumDepth = limit
        let text = String(repeating: "(", count: depth) + String(repeating: ")", count: depth)
        let result = Result { () throws(PropertyListError) in try read(text, options: options) }
        switch result {
        case .success: #expect(accepted)
        case .failure(let error): #expect(!accepted && error.code == .limitExceeded)
        }
    }

    @Test func aDeepDocumentIsRefusedWithoutExhaustingTheStack() {
        let text = String(repeating: "{a=", count: 200_000)
        #expect {
            try read(text)
        } throws: { error in
            (error as? PropertyListError)?.code == .limitExceeded
        }
    }

    @Test(arguments: [(limit: 4, accepted: true), (3, false)])
    func moreValuesThanTheLimitAreRefused(limit: Int, accepted: Bool) {
        var options = PropertyListReadOptions()
        options.maximumObjectCount = limit
        // An array and three strings: four values.
        let result = Result { () throws(PropertyListError) in try read("(a, b, c)", options: options) }
        switch result {
        case .success: #expect(accepted)
        case .failure(let error): #expect(!accepted && error.code == .limitExceeded)
        }
    }

    // MARK: Corpus

    /// The escape after each `'\\` of a torture-test file, up to its closing quote.
    private static func escapes(in data: Data) -> [Substring] {
        String(decoding: data, as: UTF8.self).split(separator: ",").compactMap { item in
            guard let slash = item.firstIndex(of: "\\") else { return nil }
            return item[item.index(after: slash)...].prefix { $0 != "'" }
        }
    }

    /// The index of the first difference, so a failure names one element rather than 60 000.
    private static func firstMismatch(_ a: [PropertyListValue], _ b: [PropertyListValue]) -> Int? {
        a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? (a.count == b.count ? nil : a.count)
    }

    @Test func swiftFoundationsOctalEscapeTortureTestReadsAsCFReadsIt() throws {
        guard let data = OpenStepCorpus.file("swift-foundation/test_oldStylePlist_getSlashedChars_octal.plist") else { return }
        let strings = try #require(try OpenStepPropertyListReader().read(data).arrayValue)
        // Each element is 1 to 3 octal digits; CF wraps the value to a byte and maps it through NeXTSTEP.
        let expected = Self.escapes(in: data).map { digits -> PropertyListValue in
            let byte = UInt8(truncatingIfNeeded: Int(digits, radix: 8) ?? -1)
            return .string(String(Character(Unicode.Scalar(CoreFoundationText.nextStepToUnicode(byte)) ?? "?")))
        }
        #expect(expected.count == 580)
        #expect(Self.firstMismatch(strings, expected) == nil)
    }

    @Test func swiftFoundationsUnicodeEscapeTortureTestReadsEveryCodeUnit() throws {
        guard let data = OpenStepCorpus.file("swift-foundation/test_oldStylePlist_getSlashedChars_unicode.plist") else { return }
        let strings = try #require(try OpenStepPropertyListReader().read(data).arrayValue)
        // Each element is 'U' and 1 to 4 hex digits of one UTF-16 code unit.
        let expected = Self.escapes(in: data).map { escape -> PropertyListValue in
            let scalar = UInt32(escape.dropFirst(), radix: 16).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}"
            return .string(String(Character(scalar)))
        }
        #expect(expected.count == 67_855)
        #expect(Self.firstMismatch(strings, expected) == nil)
    }

    @Test(arguments: ["octal", "unicode"])
    func escapeTortureTestsReadAsAppleWroteTheirExpectedResults(kind: String) throws {
        // swift-foundation keeps what CF read from each test, written by CF as a binary plist.
        let name = "swift-foundation/test_oldStylePlist_getSlashedChars_\(kind)"
        guard let source = OpenStepCorpus.file(name + ".plist"), let expected = OpenStepCorpus.file(name + "_expected.plist") else { return }
        let ours = try #require(try OpenStepPropertyListReader().read(source).arrayValue)
        let apple = try #require(try BinaryPropertyListReader().read(expected).arrayValue)
        #expect(ours.count == apple.count)
        let mismatch = Self.firstMismatch(ours, apple)
        #expect(mismatch == nil, "first difference at \(mismatch ?? -1): \(mismatch.map { ($0 < ours.count ? ours[$0] : .null, $0 < apple.count ? apple[$0] : .null) }.map { "\($0)" } ?? "")")
    }

    /// The corpus labels its files by what other tools make of them; Core Foundation is the
    /// judge here: each OpenStep file is read exactly when CF reads it.
    @Test func everyOpenStepFileInTheCorpusIsReadExactlyWhenCFReadsIt() throws {
        let rows = OpenStepCorpus.rows().filter { $0.format == "openstep" }
        guard OpenStepCorpus.isPresent else { return }
        #expect(rows.count >= 30)
        var disagreements: [String] = []
        var read = 0
        for row in rows {
            guard let data = OpenStepCorpus.file(row.path) else { continue }
            let theirs = CoreFoundationVerdict.reads(data) ?? false
            let ours = (try? PropertyListReader(options: .coreFoundation).read(data)) != nil
            if ours { read += 1 }
            if theirs != ours { disagreements.append("\(row.path): CF \(theirs ? "reads" : "refuses"), we \(ours ? "read" : "refuse")") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
        #expect(read >= 10)
    }

    @Test func projectFilesReadWithTheirObjects() throws {
        guard let data = OpenStepCorpus.file("rust-plist/netnewswire.pbxproj") else { return }
        let root = try OpenStepPropertyListReader().read(data)
        #expect(root["archiveVersion"] == "1")
        #expect((root["objects"]?.dictionaryValue?.count ?? 0) > 1000)
    }

    @Test func theSameDocumentIsRefusedAlikeInEveryEncodingOfTheCorpus() throws {
        // Its unquoted Japanese string is no OpenStep to CF, whatever the encoding.
        let names = ["utf-8", "utf-16be", "utf-16le", "utf-32be", "utf-32le"]
        var refused = 0
        for name in names {
            guard let data = OpenStepCorpus.file("dd-plist/test-ascii-\(name).plist") else { continue }
            let error = #expect(throws: PropertyListError.self) { try OpenStepPropertyListReader(options: .coreFoundation).read(data) }
            #expect(error?.message.contains("'ク'") == true, "\(name): \(String(describing: error))")
            refused += 1
        }
        if OpenStepCorpus.isPresent { #expect(refused == names.count) }
    }
}

/// The shared corpus, when this checkout sits beside it. Tests skip quietly without it.
enum OpenStepCorpus {
    struct Row {
        let path: String
        let format: String
        let invalid: String
        let invalidLevel: String
    }

    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // …/Tests/PropertyListTests/File.swift → parent of the package
        return url.appendingPathComponent("shared/corpus")
    }()

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("INDEX.tsv").path) }

    static func file(_ path: String) -> Data? {
        try? Data(contentsOf: root.appendingPathComponent(path))
    }

    static func rows() -> [Row] {
        guard let data = file("INDEX.tsv") else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) else { return [] }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let p = column("path"), let f = column("format"), let d = column("deliberately_invalid") else { return [] }
        let level = column("invalid_level")
        return lines.dropFirst().compactMap { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count > max(p, f, d) else { return nil }
            let invalidLevel = level.flatMap { $0 < cells.count ? cells[$0] : nil } ?? (cells[d] == "yes" ? "plist" : "")
            return Row(path: cells[p], format: cells[f], invalid: cells[d], invalidLevel: invalidLevel)
        }
    }
}
