import Foundation
import Testing
@testable import PropertyList

@Suite struct OpenStepPropertyListReaderTests {
    private func read(_ text: String, options: PropertyListReadOptions = .default) throws(PropertyListError) -> PropertyListValue {
        try OpenStepPropertyListReader(options: options).read(Data(text.utf8))
    }

    private func dictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
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
                == dictionary([
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
        #expect(try read("{ Hello; World = Earth; }") == dictionary([("Hello", "Hello"), ("World", "Earth")]))
    }

    @Test func aStringsFileIsADictionaryWithoutBraces() throws {
        let value = try read(
            """
            /* Localizable.strings */
            "greeting" = "Bonjour";
            farewell = "Au revoir"; // unquoted key
            "shortcut";
            """)
        #expect(value == dictionary([("greeting", "Bonjour"), ("farewell", "Au revoir"), ("shortcut", "shortcut")]))
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
        #expect(value == dictionary([("k", "v")]))
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
        (#""\U00e9\u00E9""#, "éé"),
        (#""\U41\U4""#, "A\u{04}"),  // one to four hex digits
        (#""\UD83D\UDE00""#, "😀"),  // two escapes form a surrogate pair
        ("\"a\\\nb\"", "a\nb"),  // a backslash before a newline keeps the newline
    ])
    func escapesDecodeAsCFDecodesThem(source: String, expected: String) throws {
        #expect(try read(source) == .string(expected))
    }

    @Test func aLoneSurrogateEscapeBecomesAReplacementCharacter() throws {
        #expect(try read(#""a\UD800b""#) == "a\u{FFFD}b")
    }

    @Test func aLoneSurrogateEscapeIsKeptWhenAsked() throws {
        var options = PropertyListReadOptions()
        options.preservesInvalidUTF16 = true
        #expect(try read(#""a\UD800b""#, options: options) == .invalidUTF16String([0x61, 0xD800, 0x62]))
        #expect(try read(#""\UDE00\UD83D""#, options: options) == .invalidUTF16String([0xDE00, 0xD83D]))
    }

    @Test func octalEscapesAboveASCIIFollowFoundationsNeXTSTEPTable() {
        for byte in UInt8(0x80)...UInt8(0xFF) {
            let foundation = String(bytes: [byte], encoding: .nextstep)?.unicodeScalars.first?.value ?? 0
            #expect(OpenStepParser.nextStepToUnicode(byte) == foundation, "byte 0x\(String(byte, radix: 16))")
        }
    }

    // MARK: Non-ASCII text

    @Test func unquotedStringsMayHoldNonASCIILetters() throws {
        #expect(try read("{ not_quoted = クオート無し; }") == dictionary([("not_quoted", "クオート無し")]))
    }

    @Test(arguments: [
        String.Encoding.utf8, .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian,
    ])
    func textIsReadInEveryUnicodeEncodingWithoutAByteOrderMark(encoding: String.Encoding) throws {
        let text = "{ clé = \"värde 😀\"; }"
        let data = try #require(text.data(using: encoding))
        #expect(try OpenStepPropertyListReader().read(data) == dictionary([("clé", "värde 😀")]))
    }

    @Test(arguments: [
        [UInt8]([0xEF, 0xBB, 0xBF]) + Array("(é)".utf8),  // UTF-8 with its mark
        [0xFE, 0xFF, 0x00, 0x28, 0x00, 0xE9, 0x00, 0x29],  // UTF-16BE with its mark
        [0xFF, 0xFE, 0x28, 0x00, 0xE9, 0x00, 0x29, 0x00],  // UTF-16LE with its mark
        [0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x28, 0, 0, 0, 0xE9, 0, 0, 0, 0x29],  // UTF-32BE with its mark
        [0xFF, 0xFE, 0x00, 0x00, 0x28, 0, 0, 0, 0xE9, 0, 0, 0, 0x29, 0, 0, 0],  // UTF-32LE with its mark
    ])
    func textIsReadInEveryUnicodeEncodingWithAByteOrderMark(bytes: [UInt8]) throws {
        #expect(try OpenStepPropertyListReader().read(Data(bytes)) == ["é"])
    }

    // MARK: GNUstep

    @Test func gnustepTypedValuesReadAsTheirTypes() throws {
        let value = try read(
            """
            ( <*I87>, <*I-12>, <*I170141183460469231731687303715884105727>, <*R3.14159>, <*R-1e3>,
              <*BY>, <*BN>, <*D2011-11-28 09:21:30 +0000>, <*D2001-01-01 02:00:00 +0200>, <[AAEC]>, <[qqq7u8zM]> )
            """)
        #expect(
            value
                == [
                    .integer(PropertyListInteger(87)), .integer(PropertyListInteger(-12)), .integer(PropertyListInteger(Int128.max)),
                    .real(3.14159), .real(-1000), .bool(true), .bool(false),
                    .date(Date(timeIntervalSince1970: 1_322_472_090)), .date(Date(timeIntervalSinceReferenceDate: 0)),
                    .data(Data([0, 1, 2])), .data(Data([0xAA, 0xAA, 0xBB, 0xBB, 0xCC, 0xCC])),
                ])
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
        Corrupt("a /* comment that never closes", "{ a = b; } /* trailing", .truncated),
        Corrupt("the same, with NULs inside, as dd-plist issue 73 has it", "/*\u{0}\u{0}/", .truncated),
        Corrupt("the last entry without its ';', which CF also refuses", "{ a = b }", .malformed),
        Corrupt("a key with neither '=' nor ';'", "{ a b; }", .malformed),
        Corrupt("a value missing after '='", "{ a = ; }", .malformed),
        Corrupt("two values in an array without a comma", "( a b )", .malformed),
        Corrupt("an array that never closes", "( a, b", .truncated),
        Corrupt("a dictionary that never closes", "{ a = b;", .truncated),
        Corrupt("a second root value", "{ a = b; } { }", .malformed),
        Corrupt("a stray brace after a strings file", "\"a\" = \"b\"; }", .malformed),
        Corrupt("a collection as a key", "{ (a) = b; }", .malformed),
        Corrupt("a raw NUL byte inside a quoted string", bytes: Array("( \"a".utf8) + [0x00] + Array("b\" )".utf8), .malformed),
        Corrupt("a raw NUL byte after an unquoted string", bytes: Array("( ab".utf8) + [0x00, 0x29], .malformed),
        Corrupt("an escape with no meaning, as in dd-plist issue 88", #"{ "Hello" = "Worl\d"; }"#, .malformed),
        Corrupt("a backslash as the last character", #"( "a\"#, .truncated),
        Corrupt("an odd number of hex digits", "<0fb>", .malformed),
        Corrupt("a letter that is not hex in data", "<0g>", .malformed),
        Corrupt("data that never closes, as in libplist's oplist fuzzer", "(<", .truncated),
        Corrupt("a '+' in an unquoted string, which CF does not accept", "( a+b )", .malformed),
        Corrupt("a GNUstep integer with letters", "<*I12x>", .invalidValue),
        Corrupt("a GNUstep integer above 128 bits", "<*I170141183460469231731687303715884105728>", .invalidValue),
        Corrupt("a GNUstep boolean other than Y or N", "<*BT>", .invalidValue),
        Corrupt("a GNUstep date on the 30th of February", "<*D2020-02-30 00:00:00 +0000>", .invalidValue),
        Corrupt("a GNUstep date without its zone", "<*D2020-02-03 00:00:00>", .invalidValue),
        Corrupt("a GNUstep type letter that does not exist", "<*Q1>", .malformed),
        Corrupt("a comma where an array's first value should be, as in dd-plist issue 76", "(((,((<*R\u{1}\u{11}0", .malformed),
        Corrupt("base64 with a character outside its alphabet", "<[AA*C]>", .invalidValue),
        Corrupt("base64 without its closing ']>'", "<[AAEC>", .truncated),
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
                0x29,  // half of ")"
            ], .malformed),
    ]

    @Test(arguments: corrupt)
    func corruptInputIsRefused(_ input: Corrupt) {
        #expect {
            try OpenStepPropertyListReader().read(Data(input.bytes))
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

    @Test(arguments: [(depth: 3, limit: 3, accepted: true), (4, 3, false), (512, 512, true), (513, 512, false)])
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
            return .string(String(Character(Unicode.Scalar(OpenStepParser.nextStepToUnicode(byte)) ?? "?")))
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

    @Test func everyValidOpenStepFileInTheCorpusReads() throws {
        let rows = OpenStepCorpus.rows().filter { $0.format == "openstep" && $0.invalid == "no" }
        guard OpenStepCorpus.isPresent else { return }
        #expect(rows.count >= 20)
        var failures: [String] = []
        for row in rows {
            guard let data = OpenStepCorpus.file(row.path) else { continue }
            do {
                _ = try OpenStepPropertyListReader().read(data)
            } catch {
                failures.append("\(row.path): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func everyInvalidOpenStepFileInTheCorpusIsRefused() throws {
        // Rows refused at the plist level whose bytes PropertyListFormat.detect sends to this reader.
        let rows = OpenStepCorpus.rows().filter { $0.invalid == "yes" && $0.invalidLevel == "plist" }
        var checked = 0
        var accepted: [String] = []
        for row in rows {
            guard let data = OpenStepCorpus.file(row.path), PropertyListFormat.detect(data) == .openStep else { continue }
            checked += 1
            if (try? OpenStepPropertyListReader().read(data)) != nil { accepted.append(row.path) }
        }
        #expect(accepted.isEmpty, "accepted: \(accepted)")
        if OpenStepCorpus.isPresent { #expect(checked >= 12) }
    }

    @Test func projectFilesReadWithTheirObjects() throws {
        guard let data = OpenStepCorpus.file("rust-plist/netnewswire.pbxproj") else { return }
        let root = try OpenStepPropertyListReader().read(data)
        #expect(root["archiveVersion"] == "1")
        #expect((root["objects"]?.dictionaryValue?.count ?? 0) > 1000)
    }

    @Test func theSameDocumentReadsAlikeInEveryEncodingOfTheCorpus() throws {
        let names = ["utf-8", "utf-16be", "utf-16le", "utf-32be", "utf-32le"]
        let values = try names.compactMap { name -> PropertyListValue? in
            guard let data = OpenStepCorpus.file("dd-plist/test-ascii-\(name).plist") else { return nil }
            return try OpenStepPropertyListReader().read(data)
        }
        guard let first = values.first else { return }
        #expect(values.count == names.count)
        for value in values { #expect(value == first) }
        #expect(first["not_quoted"] == "クオート無し")
        #expect(first["with_u_escapes"] == " 幸")
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
