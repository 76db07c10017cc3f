import Dispatch
import Foundation
import Synchronization
import Testing
@testable import PropertyList
import PropertyListXML

/// Wraps a body in Apple's prologue, as Foundation writes it.
private func applePlist(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    \(body)
    </plist>

    """
}

private func readXML(_ xml: String, options: PropertyListReadOptions = .default) throws(PropertyListError) -> PropertyListValue {
    try XMLPropertyListReader(options: options).read(Data(xml.utf8))
}

/// A document that must be refused, written one line per array element with a comment on each.
struct CorruptXML: Sendable, CustomTestStringConvertible {
    var name: String
    var lines: [String]
    var code: PropertyListError.Code
    /// A piece of the message that says what is wrong.
    var says: String

    init(_ name: String, _ code: PropertyListError.Code, says: String, _ lines: [String]) {
        self.name = name
        self.code = code
        self.says = says
        self.lines = lines
    }

    var data: Data { Data(lines.joined(separator: "\n").utf8) }
    var testDescription: String { name }
}

@Suite struct XMLPropertyListReaderTests {
    // MARK: - Every element

    @Test(arguments: [
        ("<string>hello</string>", PropertyListValue.string("hello")),
        ("<string/>", ""),
        ("<string></string>", ""),
        ("<string>  spaced\n\tout  </string>", "  spaced\n\tout  "),
        ("<string>&lt;&gt;&amp;&apos;&quot;</string>", "<>&'\""),
        ("<string>&#169;&#x1D562;</string>", "©𝕢"),
        ("<string><![CDATA[<raw & ready>]]></string>", "<raw & ready>"),
        ("<string>Grüße 日本 😀</string>", "Grüße 日本 😀"),
        ("<integer>42</integer>", 42),
        ("<integer>-42</integer>", -42),
        ("<integer>+7</integer>", 7),
        ("<integer>- 5</integer>", -5),
        ("<integer>0x1F</integer>", 31),
        ("<integer>0XfF</integer>", 255),
        ("<integer>-0x10</integer>", -16),
        ("<integer>-0</integer>", 0),
        ("<integer>00012</integer>", 12),
        ("<integer>18446744073709551615</integer>", .integer(PropertyListInteger(UInt64.max))),
        ("<integer>-9223372036854775808</integer>", .integer(PropertyListInteger(Int64.min))),
        ("<real>1.5</real>", 1.5),
        ("<real>-0.25</real>", -0.25),
        ("<real>1e10</real>", 1e10),
        ("<real>1E-3</real>", 0.001),
        ("<real>.5</real>", 0.5),
        ("<real>5</real>", 5.0),
        ("<real>0.10000000000000001</real>", 0.1),
        ("<real>nan</real>", .real(.nan)),
        ("<real>NaN</real>", .real(.nan)),
        ("<real>inf</real>", .real(.infinity)),
        ("<real>+inf</real>", .real(.infinity)),
        ("<real>-inf</real>", .real(-.infinity)),
        ("<real>infinity</real>", .real(.infinity)),
        ("<real>+infinity</real>", .real(.infinity)),
        ("<real>-Infinity</real>", .real(-.infinity)),
        ("<true/>", true),
        ("<true></true>", true),
        ("<false/>", false),
        ("<date>2001-01-01T00:00:00Z</date>", .date(Date(timeIntervalSinceReferenceDate: 0))),
        ("<date>1970-01-01T00:00:00Z</date>", .date(Date(timeIntervalSince1970: 0))),
        ("<date>2011-05-12T03:28:01Z</date>", .date(Date(timeIntervalSince1970: 1_305_170_881))),
        ("<date>2000-12-31T23:59:60Z</date>", .date(Date(timeIntervalSinceReferenceDate: 0))),
        ("<date>-001-11-28T00:00:00Z</date>", .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000 - 86_400 * 400))),
        ("<date>2001-02-30T00:00:00Z</date>", .date(Date(timeIntervalSinceReferenceDate: 86_400 * 60))),
        ("<data>AQID</data>", .data(Data([1, 2, 3]))),
        ("<data>AQ==</data>", .data(Data([1]))),
        ("<data>AQI=</data>", .data(Data([1, 2]))),
        ("<data>AQ</data>", .data(Data())),  // CF drops a group of fewer than four digits
        ("<integer> \t5</integer>", 5),  // CF skips whitespace before an integer, not after
        ("<real> 2.5</real>", 2.5),  // nor after a real
        ("<data>\n\tAQ\n\t ID\n</data>", .data(Data([1, 2, 3]))),
        ("<data></data>", .data(Data())),
        ("<array/>", []),
        ("<array></array>", []),
        ("<array> <integer>1</integer> <array><true/></array> </array>", [1, [true]]),
        ("<dict/>", [:]),
        ("<dict>\n</dict>", [:]),
        ("<dict><key>a</key><integer>1</integer><key>b</key><dict/></dict>", ["a": 1, "b": [:]]),
        ("<dict><key/><string>empty key</string></dict>", ["": "empty key"]),
    ] as [(String, PropertyListValue)])
    func eachElementReadsAsItsValue(body: String, expected: PropertyListValue) throws {
        #expect(try readXML(applePlist(body)) == expected)
    }

    /// What other readers take and CF refuses (CFPropertyList.c).
    @Test(arguments: [
        "<string>a<!-- comment -->b</string>",  // `<!` in a string must start CDATA
        "<integer> 12 </integer>",  // whitespace after the digits
        "<integer>170141183460469231731687303715884105727</integer>",  // past 64 bits
        "<integer>-170141183460469231731687303715884105728</integer>",  // below -2^63
        "<real> 2.5 </real>",  // whitespace after the number
        "<false> </false>",  // anything inside a boolean
        "<date>2011-05-12Z</date>",  // a date without its time
        "<date>2011Z</date>",
        "<data/>",  // an empty <data/> (but <data></data> is empty data)
    ])
    func whatCFRefusesIsRefused(body: String) {
        #expect(throws: PropertyListError.self) { try readXML(applePlist(body), options: .coreFoundation) }
    }

    @Test func aDictionaryKeepsDuplicateKeysInTheOrderReadWhenAskedTo() throws {
        // By default a repeated key keeps its last value, as CF does (DuplicateKeyTests);
        // `.keepAll` keeps every entry as written.
        var options = PropertyListReadOptions()
        options.duplicateKeys = .keepAll
        let value = try readXML(applePlist("<dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict>"), options: options)
        let dictionary = try #require(value.dictionaryValue)
        #expect(dictionary.keys == ["a", "a"])
        #expect(dictionary.values == [1, 2])
        #expect(dictionary["a"] == 2)
    }

    @Test func aCFUIDDictionaryReadsAsAUID() throws {
        #expect(try readXML(applePlist("<dict><key>CF$UID</key><integer>5</integer></dict>")) == .uid(5))
        #expect(try readXML(applePlist("<dict><key>CF$UID</key><integer>0</integer></dict>")) == .uid(0))
        #expect(try readXML(applePlist("<array><dict>\n\t<key>CF$UID</key>\n\t<integer>4294967295</integer>\n</dict></array>")) == [.uid(UInt64(UInt32.max))])
    }

    @Test(arguments: [
        // A second key makes it an ordinary dictionary.
        "<dict><key>CF$UID</key><integer>5</integer><key>x</key><true/></dict>",
        // Nor is a string.
        "<dict><key>CF$UID</key><string>5</string></dict>",
        // The key is case-sensitive.
        "<dict><key>cf$uid</key><integer>5</integer></dict>",
    ])
    func dictionariesThatOnlyLookLikeUIDsStayDictionaries(body: String) throws {
        #expect(try readXML(applePlist(body)).dictionaryValue != nil)
    }

    @Test func aBareRootValueWithoutPlistIsReadAsCFDoes() throws {
        #expect(try readXML("<string>alone</string>") == "alone")
        #expect(try readXML("<?xml version=\"1.0\"?>\n<array><integer>1</integer></array>\n") == [1])
    }

    @Test func commentsAndProcessingInstructionsAnywhereAreSkipped() throws {
        let xml = "<?xml version=\"1.0\"?><!-- a --><plist><!-- b --><array><?pi x?><integer>1</integer><!-- c --></array></plist><!-- d -->"
        #expect(try readXML(xml) == [1])
    }

    // MARK: - Encodings

    static let sample = applePlist("<dict><key>grüße</key><string>日本 😀</string><key>n</key><integer>7</integer></dict>")
    static let sampleValue: PropertyListValue = ["grüße": "日本 😀", "n": 7]

    @Test func aUTF16LittleEndianDocumentWithABOMIsRead() throws {
        let body = Self.sample.replacingOccurrences(of: "UTF-8", with: "UTF-16")
        var bytes: [UInt8] = [0xFF, 0xFE]  // byte-order mark, little-endian
        for unit in body.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try XMLPropertyListReader().read(Data(bytes)) == Self.sampleValue)
    }

    @Test func aUTF16BigEndianDocumentWithABOMIsRead() throws {
        let body = Self.sample.replacingOccurrences(of: "UTF-8", with: "UTF-16")
        var bytes: [UInt8] = [0xFE, 0xFF]  // byte-order mark, big-endian
        for unit in body.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(try XMLPropertyListReader().read(Data(bytes)) == Self.sampleValue)
    }

    @Test func aHandWrittenUTF16DocumentIsRead() throws {
        let bytes: [UInt8] = [
            0xFE, 0xFF,  // byte-order mark, big-endian
            0x00, 0x3C, 0x00, 0x73, 0x00, 0x74, 0x00, 0x72, 0x00, 0x69, 0x00, 0x6E, 0x00, 0x67, 0x00, 0x3E,  // <string>
            0x00, 0xE9,  // é
            0xD8, 0x3D, 0xDE, 0x00,  // 😀 as a surrogate pair
            0x00, 0x3C, 0x00, 0x2F, 0x00, 0x73, 0x00, 0x74, 0x00, 0x72, 0x00, 0x69, 0x00, 0x6E, 0x00, 0x67, 0x00, 0x3E,  // </string>
        ]
        #expect(try XMLPropertyListReader().read(Data(bytes)) == "é😀")
    }

    @Test func aUTF8ByteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(Self.sample.utf8)  // UTF-8 BOM, then the document
        #expect(try XMLPropertyListReader().read(Data(bytes)) == Self.sampleValue)
    }

    @Test func aUTF32DocumentIsRead() throws {
        let body = Self.sample.replacingOccurrences(of: "UTF-8", with: "UTF-32")
        var bytes: [UInt8] = [0x00, 0x00, 0xFE, 0xFF]  // byte-order mark, UTF-32 big-endian
        for scalar in body.unicodeScalars {
            let v = scalar.value
            bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        }
        #expect(try XMLPropertyListReader().read(Data(bytes)) == Self.sampleValue)
    }

    @Test func aLatin1DocumentIsReadThroughItsDeclaration() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist><string>".utf8)
        bytes.append(0xE9)  // é in ISO-8859-1
        bytes += Array("</string></plist>".utf8)
        #expect(try XMLPropertyListReader().read(Data(bytes)) == "é")
    }

    /// CF looks a declared name up in ICU's table, which compares only its letters (in any
    /// case) and digits, without leading zeros, up to a NUL (`ucnv_io_stripASCIIForCompare`);
    /// found by FuzzParity ("UT<[F-8", which CF reads as UTF-8).
    @Test(arguments: ["UTF_8", "utf8", "U.T.F-08", "UT<[F-8", "UTF-8\u{0}latin1", "ISO_8859_01"])
    func anEncodingNameIsComparedAsICUComparesIt(_ name: String) throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"\(name)\"?>\n<plist><string>".utf8)
        bytes.append(0x41)
        bytes += Array("</string></plist>".utf8)
        #expect(try XMLPropertyListReader().read(Data(bytes)) == "A")
        #expect(CoreFoundationVerdict.reads(Data(bytes)) != false)
    }

    /// Row linux-lacks-macroman of docs/parity.md: CF on Apple's platforms reads MacRoman with a
    /// converter of its own, which Linux's CF does not build (CFStringEncodingConverter.c,
    /// `#if TARGET_OS_MAC case kCFStringEncodingMacRoman`), so Foundation on Linux refuses the
    /// document that Archivist reads as Apple's platforms read it.
    @Test(arguments: ["macintosh", "x-mac-roman"])
    func aMacRomanDocumentIsReadAsApplesPlatformsReadIt(_ name: String) throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"\(name)\"?>\n<plist><string>".utf8)
        bytes.append(0x8E)  // é in MacRoman
        bytes += Array("</string></plist>".utf8)
        #expect(try XMLPropertyListReader().read(Data(bytes)) == "é")
        #expect(CoreFoundationVerdict.reads(Data(bytes)) != true, "Foundation on Linux now reads MacRoman: the row can go")
    }

    /// Row euc-jp-linux of docs/parity.md: CF's name table maps "euc-jp" to Japanese (EUC)
    /// (CFStringEncodingDatabase.c) and Apple documents it (`String.Encoding.japaneseEUC`), but
    /// Foundation on Linux reads none of its two-byte characters (あ, A4 A2, is refused where
    /// Shift_JIS's reads), so Archivist reads such a document as Apple's platforms would.
    @Test func anEUCJPDocumentIsReadAsApplesPlatformsReadIt() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<plist><string>".utf8)
        bytes += [0xA4, 0xA2]  // あ in EUC-JP
        bytes += Array("</string></plist>".utf8)
        #expect(try XMLPropertyListReader().read(Data(bytes)) == "あ")
        #expect(CoreFoundationVerdict.reads(Data(bytes)) != true, "Foundation on Linux now reads EUC-JP: the row can go")
        var shiftJIS = Array("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<plist><string>".utf8)
        shiftJIS += [0x82, 0xA0]  // あ in Shift_JIS
        shiftJIS += Array("</string></plist>".utf8)
        #expect(CoreFoundationVerdict.reads(Data(shiftJIS)) != false)
    }

    /// A name CF cannot hand ICU is no encoding: one with a byte past 0x7F (CF makes a C string
    /// of it in ASCII), or of 60 bytes or more (ICU's longest name is 59); found by FuzzParity.
    @Test(arguments: [Array("\u{E9}UTF-8".unicodeScalars.map { UInt8($0.value) }), Array(("UTF-8" + String(repeating: ".", count: 55)).utf8)])
    func anEncodingNameICUCannotTakeIsRefused(_ name: [UInt8]) throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"".utf8) + name + Array("\"?><plist><true/></plist>".utf8)
        #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(Data(bytes)) }
        #expect(CoreFoundationVerdict.reads(Data(bytes)) != true)
        // One byte shorter, the name is read.
        let shorter = Array("<?xml version=\"1.0\" encoding=\"".utf8) + Array(("UTF-8" + String(repeating: ".", count: 54)).utf8) + Array("\"?><plist><true/></plist>".utf8)
        #expect(try XMLPropertyListReader().read(Data(shorter)) == true)
    }

    /// CF converts the whole name to ASCII, so a byte past 0x7F after a NUL still makes it no
    /// encoding; ICU reads the name up to the NUL, so its length is counted there. Found by
    /// FuzzParity (`UTF-8#\0\xAB…`).
    @Test func anEncodingNameIsCheckedWholeForHighBytesAndMeasuredToItsFirstNUL() throws {
        func document(_ name: [UInt8]) -> Data {
            Data(Array("<?xml version=\"1.0\" encoding=\"".utf8) + name + Array("\"?><plist><true/></plist>".utf8))
        }
        let highAfterNUL = document(Array("UTF-8#".utf8) + [0x00, 0xAB])
        #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(highAfterNUL) }
        #expect(CoreFoundationVerdict.reads(highAfterNUL) != true)
        let longAfterNUL = document(Array("UTF-8".utf8) + [0x00] + Array(repeating: UInt8(ascii: "a"), count: 70))
        #expect(try XMLPropertyListReader().read(longAfterNUL) == true)
        #expect(CoreFoundationVerdict.reads(longAfterNUL) != false)
    }

    /// Names outside CF's short list are read as CF reads them, by CF's own look-up (its table's
    /// prefixes with a number as `strtol` reads it, then ICU's aliases by their letters and
    /// digits) and CF's converters, never iconv's options (`,x`) or leniency. `UTF-8,x`,
    /// `Shift_JIS,x` and `+ ` in UTF-7 were found by FuzzParity.
    @Test(arguments: [("ISO-8859-1,foo", true), ("iso-8859-0", false), ("iso-8859-17", false), ("ISO-8859-5", true),
                      ("CP437,x", true), ("windows-1252,a", true), ("windows- 1251", true), ("cp-1252", true), ("Big 5", true),
                      ("UTF-8,x", false), ("Shift_JIS,x", false), ("EUC-JP,x", false), ("UT*/F-8", true), ("IBM037", false),
                      ("UTF-7", true), ("GBK", true), ("KOI8-R", true), ("ISO-8859-1e" + String(repeating: "`", count: 140), true),
                      ("UTF-8" + String(repeating: "-", count: 70), false), ("", false)])
    func anEncodingNameOutsideCFsShortListIsReadAsCFReadsIt(_ name: String, _ reads: Bool) throws {
        let document = Data("<?xml version=\"1.0\" encoding=\"\(name)\"?>\n<plist version=\"1.0\"><string>x</string></plist>\n".utf8)
        try check(document, reads: reads)
    }

    /// Bytes a declared encoding cannot hold are refused as CF's converter refuses them; what
    /// follows the declaration is given as bytes (scalars below 256).
    @Test(arguments: [("UTF-7", "<!DOCTYPE+ plist><plist><true/></plist>", false), ("UTF-7", "<plist><string>a+AGEA-b</string></plist>", true),
                      ("ISO-8859-8", "<plist><string>\u{BF}\u{FB}</string></plist>", false),
                      ("Big5", "<plist><string>\u{A4}</string></plist>", false)])
    func bytesTheDeclaredEncodingCannotHoldAreRefusedAsCFRefusesThem(_ name: String, _ rest: String, _ reads: Bool) throws {
        let document = Data(Array("<?xml version=\"1.0\" encoding=\"\(name)\"?>\n".utf8)
            + rest.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        try check(document, reads: reads)
    }

    /// `document` is read, or refused, by this reader and by CF alike.
    func check(_ document: Data, reads: Bool) throws {
        if reads {
            #expect(throws: Never.self) { try XMLPropertyListReader().read(document) }
        } else {
            #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(document) }
        }
        #expect(CoreFoundationVerdict.reads(document) != !reads)
    }

    /// CF drops one leading U+FEFF from each string and key, however it was written (raw, in
    /// CDATA, as a character reference, before an entity), and keeps one that follows anything
    /// else. Found by FuzzParity.
    @Test(arguments: [("<string>\u{FEFF}x</string>", "x"), ("<string>\u{FEFF}\u{FEFF}x</string>", "\u{FEFF}x"),
                      ("<string><![CDATA[\u{FEFF}x]]></string>", "x"), ("<string>&#xFEFF;x</string>", "x"),
                      ("<string>\u{FEFF}&amp;x</string>", "&x"), ("<string>&amp;\u{FEFF}x</string>", "&\u{FEFF}x"),
                      ("<string> \u{FEFF}x</string>", " \u{FEFF}x"), ("<string>\u{FEFF}</string>", "")])
    func aStringsLeadingFEFFIsDroppedAsCFDropsIt(_ element: String, _ expected: String) throws {
        let document = Data(applePlist(element).utf8)
        #expect(try XMLPropertyListReader().read(document) == .string(expected))
        #expect(CoreFoundationVerdict.reads(document) != false)
        let key = Data(applePlist("<dict><key>\u{FEFF}k</key><true/></dict>").utf8)
        #expect(try XMLPropertyListReader().read(key) == ["k": true])
    }

    // MARK: - What CF reads though XML forbids it

    @Test func characterReferencesToControlCharactersAreReadAsCFReadsThem() throws {
        // Apple's JSON test expectations hold &#0; and &#8;; CF reads them, so we do too.
        #expect(try readXML(applePlist("<string>a&#0;b&#8;c&#x1F;d&#xFFFE;&#xFFFF;</string>")) == "a\u{0}b\u{8}c\u{1F}d\u{FFFE}\u{FFFF}")
        #expect(try readXML(applePlist("<array><string>&#13;</string><string>x&#0;</string></array>")) == ["\r", "x\u{0}"])
        // Entity references right after one still expand (libxml2 drops them in a faulty document).
        #expect(try readXML(applePlist("<string>\\&quot;a&#8;z\\&quot;&#0;&amp;&lt;&#65;</string>")) == "\\\"a\u{8}z\\\"\u{0}&<A")
    }

    @Test func rawControlCharactersInsideAStringAreKept() throws {
        #expect(try readXML(applePlist("<string>tab\there\u{1}\u{8}\u{1B}</string>")) == "tab\there\u{1}\u{8}\u{1B}")
    }

    @Test func aControlCharacterOutsideAValueIsStillRefused() throws {
        #expect(throws: PropertyListError.self) { try readXML(applePlist("<array>&#1;</array>")) }
    }

    // MARK: - Refusals

    static let corrupt: [CorruptXML] = [
        CorruptXML("an unknown element", .malformed, says: "unknown element <foo>", [
            "<plist version=\"1.0\">",  // the usual root
            "<foo/>",  // no such plist element
            "</plist>",
        ]),
        CorruptXML("an element with a namespace prefix", .malformed, says: "unknown element <x:string>", [
            "<plist xmlns:x=\"urn:x\">",  // declares a prefix
            "<x:string>a</x:string>",  // a prefixed name is not a plist element
            "</plist>",
        ]),
        CorruptXML("text between values", .malformed, says: "text outside a value", [
            "<plist><array>",  // a container
            "hello",  // character data where only elements may be
            "<string/></array></plist>",
        ]),
        CorruptXML("text inside <true/>", .malformed, says: "text inside <true/>", [
            "<plist><true>yes</true></plist>",  // <true> holds nothing
        ]),
        CorruptXML("an element inside a string", .malformed, says: "unexpected <integer> inside <string>", [
            "<plist><string>",  // a scalar
            "<integer>1</integer>",  // cannot hold elements
            "</string></plist>",
        ]),
        CorruptXML("a key without a value", .malformed, says: "<key> without a value", [
            "<plist><dict>",  // a dictionary
            "<key>a</key>",  // a key
            "</dict></plist>",  // ends before its value
        ]),
        // CF reads a <key> in a value's place as a string: here {a = b}, then a value without a key.
        CorruptXML("two keys in a row", .malformed, says: "<string> without a <key>", [
            "<plist><dict>",  // a dictionary
            "<key>a</key><key>b</key>",  // the second key comes where a value should
            "<string/></dict></plist>",
        ]),
        CorruptXML("a value without a key", .malformed, says: "without a <key>", [
            "<plist><dict>",  // a dictionary
            "<string>orphan</string>",  // a value where a key should be
            "</dict></plist>",
        ]),
        CorruptXML("two values in <plist>", .malformed, says: "more than one value", [
            "<plist>",  // holds exactly one value
            "<string>one</string>",  // the value
            "<string>two</string>",  // one too many
            "</plist>",
        ]),
        CorruptXML("an empty <plist>", .malformed, says: "empty <plist>", [
            "<plist></plist>",  // no value at all
        ]),
        CorruptXML("an empty <plist/>", .malformed, says: "empty <plist>", [
            "<plist/>",  // no value at all
        ]),
        CorruptXML("an empty <plist> inside a value", .malformed, says: "empty <plist>", [
            "<plist><array><plist/></array></plist>",  // CF reads a <plist> anywhere, but never an empty one
        ]),
        CorruptXML("a NaN date", .invalidValue, says: "invalid <date>", [
            "<plist><date>nan</date></plist>",  // dates are ISO 8601, never NaN
        ]),
        CorruptXML("an infinite date", .invalidValue, says: "invalid <date>", [
            "<plist><date>inf</date></plist>",  // nor infinite
        ]),
        CorruptXML("a date without Z", .invalidValue, says: "invalid <date>", [
            "<plist><date>2001-01-01T00:00:00</date></plist>",  // UTC must be explicit
        ]),
        CorruptXML("an empty date", .invalidValue, says: "empty <date/>", [
            "<plist><date/></plist>",  // CF refuses it too
        ]),
        CorruptXML("letters in an integer", .invalidValue, says: "invalid <integer> \"12a\"", [
            "<plist><integer>12a</integer></plist>",  // 'a' is not a decimal digit
        ]),
        CorruptXML("an empty integer", .invalidValue, says: "empty <integer/>", [
            "<plist><integer/></plist>",  // no digits
        ]),
        CorruptXML("a bare 0x", .invalidValue, says: "invalid <integer>", [
            "<plist><integer>0x</integer></plist>",  // hex prefix, no digits
        ]),
        CorruptXML("a fraction in an integer", .invalidValue, says: "invalid <integer>", [
            "<plist><integer>1.5</integer></plist>",  // integers have no point
        ]),
        CorruptXML("an integer past 64 bits", .invalidValue, says: "invalid <integer>", [
            "<plist><integer>18446744073709551616</integer></plist>",  // UInt64.max + 1, past CF's range
        ]),
        CorruptXML("a word in a real", .invalidValue, says: "invalid <real>", [
            "<plist><real>abc</real></plist>",  // not a number nor a CF name for one
        ]),
        CorruptXML("an empty real", .invalidValue, says: "invalid <real>", [
            "<plist><real></real></plist>",  // no digits
        ]),
        CorruptXML("a hexadecimal real", .invalidValue, says: "invalid <real>", [
            "<plist><real>0x1p3</real></plist>",  // CF does not read C99 hex floats
        ]),
        CorruptXML("a byte past ASCII in base64", .invalidValue, says: "not base64", [
            "<plist><data>AQ\u{E9}D</data></plist>",  // CF skips stray ASCII, but refuses this
        ]),
        CorruptXML("an unterminated document", .truncated, says: "ends inside <array>", [
            "<plist><array>",  // opened
            "<integer>1</integer>",  // and never closed
        ]),
        CorruptXML("mismatched tags", .malformed, says: "mismatched", [
            "<plist><array></dict></plist>",  // </dict> closes <array>
        ]),
        CorruptXML("an undefined entity", .malformed, says: "nbsp", [
            "<plist><string>&nbsp;</string></plist>",  // HTML's, not XML's
        ]),
        CorruptXML("a character reference to a surrogate", .invalidValue, says: "U+D800", [
            "<plist><string>&#xD800;</string></plist>",  // half a UTF-16 pair is no character
        ]),
        CorruptXML("an empty document", .malformed, says: "no property list value", [
            "",  // nothing at all
        ]),
        CorruptXML("a document of blanks", .malformed, says: "no property list value", [
            "  ",  // spaces
            "",  // and a line break
        ]),
        // CF looks for a processing instruction's "?>" only while a byte follows it.
        CorruptXML("a declaration and nothing else", .truncated, says: "processing instruction", [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",  // a prologue only
        ]),
        CorruptXML("an unknown encoding", .malformed, says: "foobar", [
            "<?xml version=\"1.0\" encoding=\"foobar\"?>",  // no such encoding
            "<plist><string/></plist>",
        ]),
    ]

    /// What Core Foundation's parser reads that an XML parser would refuse (CFPropertyList.c).
    @Test(arguments: [
        ("a <key> as an array element, read as a string", "<plist><array><key>a</key></array></plist>", ["a"]),
        ("a date in month 13, counted into the next year", "<plist><date>2001-13-01T00:00:00Z</date></plist>", .date(Date(timeIntervalSinceReferenceDate: 31_536_000))),
        ("a stray ASCII byte in base64, skipped", "<plist><data>AQ!D</data></plist>", .data(Data())),
        ("a dangling base64 digit, dropped", "<plist><data>AQIDB</data></plist>", .data(Data([1, 2, 3]))),
        ("padding inside base64", "<plist><data>AQ==AQ==</data></plist>", .data(Data([1, 1]))),
        ("too much padding", "<plist><data>AQ===</data></plist>", .data(Data([1]))),
        ("garbage after the root element, ignored", "<plist><string/></plist>\njunk", ""),
        ("a second root element, ignored", "<plist><string/></plist>\n<plist><string/></plist>", ""),
        ("attributes CF never reads", "<plist version=1.0 version=2><string>a</string></plist>", "a"),
        ("comments and DOCTYPEs in any order before the root", "<!-- a -- b --><?x?><!DOCTYPE a><!DOCTYPE b><plist><true/></plist>", true),
        ("a raw carriage return kept in a string", "<plist><string>a\r\nb</string></plist>", "a\r\nb"),
        ("leading whitespace in an integer", "<plist><integer> \t+ 0x1F</integer></plist>", 31),
    ] as [(String, String, PropertyListValue)])
    func whatCFReadsIsRead(_ why: String, _ xml: String, _ expected: PropertyListValue) throws {
        #expect(try readXML(xml) == expected, "\(why)")
    }

    @Test(arguments: corrupt)
    func corruptDocumentsAreRefusedWithAReason(_ input: CorruptXML) {
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(input.data) }
        #expect(error?.code == input.code, "\(error.map(String.init(describing:)) ?? "")")
        #expect(error?.message.contains(input.says) == true, "\(error?.message ?? "")")
        #expect(error?.location != PropertyListError.Location.none)
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        var bytes = Array("<plist><string>".utf8)
        bytes.append(0xFF)  // never valid in UTF-8
        bytes += Array("</string></plist>".utf8)
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(Data(bytes)) }
        #expect(error?.message.contains("UTF-8") == true)
        #expect(error?.message.contains("\n") == false)
    }

    @Test func aRawNULIsReadAsCFReadsIt() throws {
        // CF reads a string's bytes as UTF-8, in which NUL is a character like any other.
        let bytes = Array("<plist><string>a".utf8) + [0x00] + Array("b</string></plist>".utf8)  // NUL inside a string
        #expect(try XMLPropertyListReader().read(Data(bytes)) == "a\u{0}b")
    }

    @Test(arguments: [
        ("-1", UInt64(0xFFFF_FFFF)),  // an integer's low 32 bits
        ("4294967296", 0),
        ("18446744073709551615", 0xFFFF_FFFF),
    ])
    func aUIDOfAnyNumberIsWhatCFMakesOfIt(number: String, uid: UInt64) throws {
        #expect(try readXML(applePlist("<dict><key>CF$UID</key><integer>\(number)</integer></dict>")) == .uid(uid))
    }

    @Test(arguments: [("3.7", UInt64(3)), ("-2.5", 0xFFFF_FFFE), ("1e20", 0x8000_0000), ("nan", 0x8000_0000)])
    func aUIDOfARealIsWhatCFMakesOfIt(number: String, uid: UInt64) throws {
        // A real, truncated to 32 bits as x86 converts it (out of range or NaN: 0x80000000).
        #expect(try readXML(applePlist("<dict><key>CF$UID</key><real>\(number)</real></dict>")) == .uid(uid))
    }

    // MARK: - Security

    @Test func applesDOCTYPEIsAccepted() throws {
        #expect(try readXML(applePlist("<true/>")) == true)
        let old = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple Computer//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\"><false/></plist>"
        #expect(try readXML(old) == false)
    }

    @Test func anyInternalSubsetIsRefusedAsCFRefusesIt() {
        // CF's skipDTD stops at the "[" of an internal subset: no declaration is ever read.
        let xml = "<!DOCTYPE plist [\n<!ELEMENT plist ANY>\n<!-- fine -->\n]>\n<plist><integer>1</integer></plist>"
        let error = #expect(throws: PropertyListError.self) { try readXML(xml) }
        #expect(error?.message.contains("internal subset") == true)
    }

    @Test func anExternalEntityIsRefused() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
              <!ENTITY xxe SYSTEM "file:///etc/passwd">
            ]>
            <plist><string>&xxe;</string></plist>
            """
        let error = #expect(throws: PropertyListError.self) { try readXML(xml) }
        #expect(error?.message.contains("internal subset") == true)
        #expect(error?.location == .lineColumn(line: 2, column: 17))
    }

    @Test func anInternalEntityIsRefusedToo() {
        let xml = "<!DOCTYPE plist [<!ENTITY name \"value\">]><plist><string>&name;</string></plist>"
        #expect(throws: PropertyListError.self) { try readXML(xml) }
    }

    @Test func aParameterEntityIsRefused() {
        let xml = "<!DOCTYPE plist [<!ENTITY % remote SYSTEM \"http://example.invalid/evil.dtd\"> %remote;]><plist><true/></plist>"
        let error = #expect(throws: PropertyListError.self) { try readXML(xml) }
        #expect(error?.message.contains("internal subset") == true)
    }

    @Test func billionLaughsIsRefusedAtOnce() {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY lol \"lol\">\n"
        for i in 1...9 {
            let previous = i == 1 ? "lol" : "lol\(i - 1)"
            xml += "<!ENTITY lol\(i) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        xml += "]>\n<plist><string>&lol9;</string></plist>\n"
        let start = Date()
        let error = #expect(throws: PropertyListError.self) { try readXML(xml) }
        #expect(error?.message.contains("internal subset") == true)
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test func anExternalDTDIsNeverLoaded() throws {
        // A DTD on disk that would define the entity the document uses.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xml-dtd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dtd = folder.appendingPathComponent("evil.dtd")
        try Data("<!ENTITY secret \"leaked\">\n".utf8).write(to: dtd)
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist SYSTEM \"\(dtd.absoluteString)\">\n<plist><string>&secret;</string></plist>"
        // CF reads only the five predefined entities: the reference is refused, the DTD never read.
        let error = #expect(throws: PropertyListError.self) { try readXML(xml) }
        #expect(error?.message.contains("secret") == true)
        // Without the reference, the same DOCTYPE is harmless: nothing is fetched.
        #expect(try readXML("<!DOCTYPE plist SYSTEM \"\(dtd.absoluteString)\">\n<plist><string>ok</string></plist>") == "ok")
    }

    // MARK: - Limits

    static func nestedArrays(_ depth: Int) -> String {
        String(repeating: "<array>", count: depth) + "<true/>" + String(repeating: "</array>", count: depth)
    }

    @Test(arguments: [
        (depth: 1, limit: 1, accepted: true),
        (depth: 2, limit: 1, accepted: false),
        (depth: 10, limit: 10, accepted: true),
        (depth: 11, limit: 10, accepted: false),
        (depth: 512, limit: 512, accepted: true),
        (depth: 513, limit: 512, accepted: false),
        (depth: 1500, limit: 2000, accepted: true),
    ])
    func theDepthLimitIsEnforced(depth: Int, limit: Int, accepted: Bool) throws {
        var options = PropertyListReadOptions()
        options.maximumDepth = limit
        let xml = "<plist>" + Self.nestedArrays(depth) + "</plist>"
        if accepted {
            var value = try readXML(xml, options: options)
            var levels = 0
            while case .array(let a) = value, let first = a.first {
                levels += 1
                value = first
            }
            #expect(levels == depth)
        } else {
            let error = #expect(throws: PropertyListError.self) { try readXML(xml, options: options) }
            #expect(error?.code == .limitExceeded)
            #expect(error?.keyPath.count == limit)
        }
    }

    @Test func theDefaultDepthLimitIs512() {
        let error = #expect(throws: PropertyListError.self) { try readXML(Self.nestedArrays(513)) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("512") == true)
    }

    @Test(arguments: [
        (values: 3, limit: 3, accepted: true),
        (values: 4, limit: 3, accepted: false),
    ])
    func theObjectCountLimitIsEnforced(values: Int, limit: Int, accepted: Bool) throws {
        var options = PropertyListReadOptions()
        options.maximumObjectCount = limit
        // The array counts as one value.
        let xml = "<array>" + String(repeating: "<true/>", count: values - 1) + "</array>"
        if accepted {
            #expect(try readXML(xml, options: options).arrayValue?.count == values - 1)
        } else {
            let error = #expect(throws: PropertyListError.self) { try readXML(xml, options: options) }
            #expect(error?.code == .limitExceeded)
        }
    }

    @Test(arguments: [
        (body: "<string>hello</string>", accepted: true),
        (body: "<string>hello!</string>", accepted: false),
        (body: "<data>aGVsbG8=</data>", accepted: true),
        (body: "<data>aGVsbG8h</data>", accepted: false),
        (body: "<array><string>abc</string><data>AQID</data></array>", accepted: false),
    ])
    func theDecodedSizeLimitIsEnforced(body: String, accepted: Bool) throws {
        var options = PropertyListReadOptions()
        options.maximumDecodedSize = 5
        if accepted {
            _ = try readXML(body, options: options)
        } else {
            let error = #expect(throws: PropertyListError.self) { try readXML(body, options: options) }
            #expect(error?.code == .limitExceeded)
        }
    }

    @Test func anInputOverTheSizeLimitIsRefusedUnread() {
        var options = PropertyListReadOptions()
        options.maximumInputSize = 10
        let error = #expect(throws: PropertyListError.self) { try readXML("<string>too long</string>", options: options) }
        #expect(error?.code == .limitExceeded)
    }

    // MARK: - Where errors are

    @Test func errorsGiveTheLineAndColumn() {
        let xml = [
            "<plist>",  // line 1
            "<array>",  // line 2
            "  <integer>12x</integer>",  // line 3: the bad value's text starts at column 12
            "</array></plist>",  // line 4
        ].joined(separator: "\n")
        let error = #expect(throws: PropertyListError.self) { try readXML(xml) }
        #expect(error?.location == .lineColumn(line: 3, column: 12))
        #expect(error?.description == "invalid <integer> \"12x\": unexpected 'x' at line 3, column 12 (in root[0])")
    }

    @Test func libxml2ErrorsGiveTheLineAndColumnToo() {
        let xml = [
            "<plist>",  // line 1
            "<array>",  // line 2
            "<string>a</strin>",  // line 3: the end tag does not match
            "</array></plist>",
        ].joined(separator: "\n")
        let error = #expect(throws: PropertyListError.self) { try readXML(xml) }
        guard case .lineColumn(let line, _) = error?.location else {
            Issue.record("no line and column in \(String(describing: error))")
            return
        }
        #expect(line == 3)
    }

    @Test func errorsGiveTheKeyPathOfTheValue() {
        let xml = applePlist("""
            <dict>
            \t<key>items</key>
            \t<array>
            \t\t<dict/>
            \t\t<dict/>
            \t\t<dict/>
            \t\t<dict>
            \t\t\t<key>id</key>
            \t\t\t<integer>4</integer>
            \t\t\t<key>name</key>
            \t\t\t<date>yesterday</date>
            \t\t</dict>
            \t</array>
            </dict>
            """)
        let error = #expect(throws: PropertyListError.self) { try readXML(xml) }
        #expect(error?.keyPath == ["items", "[3]", "name"])
        #expect(error?.keyPathDescription == "root.items[3].name")
        #expect(error?.location == .lineColumn(line: 14, column: 10))
    }

    @Test func aDanglingKeyIsNamedInTheKeyPath() {
        let error = #expect(throws: PropertyListError.self) { try readXML("<dict><key>a</key><dict><key>lost</key></dict></dict>") }
        #expect(error?.keyPath == ["a", "lost"])
    }

    // MARK: - Robustness

    @Test func readersOnManyThreadsAtOnceDoNotDisturbEachOther() {
        let good = Data(applePlist("<array><string>ok</string><integer>1</integer></array>").utf8)
        let bad = Data(applePlist("<array><string>ok</string><integer>x</integer></array>").utf8)
        let outcomes = Mutex([Bool](repeating: false, count: 64))
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            var right = false
            if i.isMultiple(of: 2) {
                right = (try? XMLPropertyListReader().read(good)) == ["ok", 1]
            } else {
                do throws(PropertyListError) {
                    _ = try XMLPropertyListReader().read(bad)
                } catch {
                    right = error.keyPath == ["[1]"]
                }
            }
            outcomes.withLock { $0[i] = right }
        }
        #expect(outcomes.withLock { $0.allSatisfy { $0 } })
    }

    @Test func aDataElementOfManyMegabytesIsRead() throws {
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let xml = try XMLPropertyListWriter().write(.data(bytes))
        #expect(try XMLPropertyListReader().read(xml) == .data(bytes))
    }

    // MARK: - The shared corpus

    @Test(.enabled(if: SharedCorpus.isAvailable, "../shared/corpus is absent"))
    func everyXMLFileOfTheCorpusIsReadExactlyWhenCFReadsIt() throws {
        // The corpus labels files by what other tools make of them; CF is the judge here.
        let files = try SharedCorpus.entries { _ in true }.filter {
            PropertyListFormat.detect(try Data(contentsOf: $0.url)) == .xml
        }
        #expect(files.count > 100)
        var disagreements: [String] = []
        for entry in files {
            let data = try Data(contentsOf: entry.url)
            let theirs = CoreFoundationVerdict.reads(data) ?? false
            do throws(PropertyListError) {
                _ = try PropertyListReader(options: .coreFoundation).read(data)
                if !theirs { disagreements.append("\(entry.path): we read what CF refuses") }
            } catch {
                if theirs { disagreements.append("\(entry.path): we refuse what CF reads: \(error)") }
                #expect(!error.message.isEmpty)
                #expect(!error.message.contains("\n"))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test(.enabled(if: SharedCorpus.isAvailable, "../shared/corpus is absent"))
    func theSameDocumentReadsAlikeInEveryUnicodeEncodingWithAByteOrderMark() throws {
        // Without a mark CF skips the first two bytes of UTF-16 and reads the rest little-endian,
        // and does not take UTF-32 for what it is: only the marked files read, and alike.
        let files = SharedCorpus.entries { $0.path.hasPrefix("dd-plist/test-xml-utf-") }
        #expect(files.count == 8)
        let marked = files.filter { $0.path.hasSuffix("-bom.plist") }
        let values = try marked.map { try XMLPropertyListReader(options: .coreFoundation).read(Data(contentsOf: $0.url)) }
        #expect(marked.count == 4)
        #expect(Set(values).count == 1)
        for unmarked in files where !unmarked.path.hasSuffix("-bom.plist") {
            #expect(throws: PropertyListError.self, "\(unmarked.path)") { try PropertyListReader(options: .coreFoundation).read(Data(contentsOf: unmarked.url)) }
        }
    }

    @Test(.enabled(if: SharedCorpus.isAvailable, "../shared/corpus is absent"))
    func everyXMLFileFoundationReadsWeReadAlike() throws {
        let files = SharedCorpus.entries { $0.format == "xml" && $0.isValid }
        var disagreements: [String] = []
        for entry in files {
            let data = try Data(contentsOf: entry.url)
            guard let theirs = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) else { continue }
            let ours = try XMLPropertyListReader(options: .coreFoundation).read(data)
            if !sameAsFoundation(theirs, ours) { disagreements.append(entry.path) }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }
}

/// Compares a Foundation object graph with our value; UIDs, which Foundation hides, match anything.
func sameAsFoundation(_ object: Any, _ value: PropertyListValue) -> Bool {
    switch value {
    case .string(let s): return (object as? String) == s
    case .integer(let i):
        guard let n = object as? NSNumber else { return false }
        if let v = i.int64Value { return n.int64Value == v }
        return i.uint64Value.map { n.uint64Value == $0 } ?? false
    case .real(let r):
        guard let d = (object as? NSNumber)?.doubleValue else { return false }
        return d == r || (d.isNaN && r.isNaN)
    case .bool(let b): return (object as? NSNumber)?.boolValue == b
    case .date(let d): return (object as? Date) == d
    case .data(let d): return (object as? Data) == d
    case .array(let a), .set(let a):
        guard let o = object as? [Any], o.count == a.count else { return false }
        return zip(o, a).allSatisfy { sameAsFoundation($0, $1) }
    case .dictionary(let d):
        guard let o = object as? [String: Any] else { return false }
        // Foundation keeps the last of duplicate keys, as our subscript does.
        return o.count == Set(d.keys).count && d.keys.allSatisfy { k in
            guard let key = k.stringValue, let theirs = o[key], let ours = d[key] else { return false }
            return sameAsFoundation(theirs, ours)
        }
    case .uid: return true
    case .null, .invalidUTF16String: return false
    }
}
