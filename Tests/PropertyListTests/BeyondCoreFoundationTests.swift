import Foundation
import Testing
@testable import PropertyList

/// The two departures from Core Foundation's answers that the conformance contract asks for
/// (docs/parity.md, "Beyond Core Foundation, and lint's strict rules"): by default the readers
/// read, with a `.beyondCoreFoundation` warning, documents CF refuses that other writers produce;
/// with `requiresWellFormedInput` (`lint`), they refuse what CF reads leniently. The inputs are
/// written here, in the shapes of the corpus files each row names.
@Suite struct BeyondCoreFoundationTests {
    private static var coreFoundationMode: PropertyListReadOptions {
        var options = PropertyListReadOptions()
        options.readsBeyondCoreFoundation = false
        return options
    }

    private static var strict: PropertyListReadOptions {
        var options = PropertyListReadOptions()
        options.requiresWellFormedInput = true
        return options
    }

    /// Reads `data` by default, returning the value, format and whether it was read beyond CF.
    private func readByDefault(_ data: Data) throws -> (PropertyListValue, PropertyListFormat, beyond: Bool) {
        var warnings: [PropertyListWarning] = []
        let (value, format) = try PropertyListReader().read(data, warnings: &warnings)
        return (value, format, warnings.contains { $0.code == .beyondCoreFoundation })
    }

    private func refusedInCoreFoundationMode(_ data: Data) -> Bool {
        (try? PropertyListReader(options: Self.coreFoundationMode).read(data)) == nil
    }

    private func refusedStrictly(_ data: Data) -> Bool {
        var warnings: [PropertyListWarning] = []
        return (try? PropertyListReader(options: Self.strict).validate(data, warnings: &warnings)) == nil
    }

    private static func dictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
        .dictionary(PropertyListDictionary(entries.map { (PropertyListValue.string($0.0), $0.1) }))
    }

    /// A binary property list of one object, `object`, at offset 8.
    private static func binary(object: [UInt8]) -> Data {
        var bytes = Array("bplist00".utf8) + object
        let table = bytes.count
        bytes.append(8)
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return Data(bytes)
    }

    // MARK: Read beyond CF, with a warning

    @Test func gnustepValuesAreReadWhereCFRefusesTheDocument() throws {
        let text = Data("{ i = <*I87>; r = <*R3.5>; b = <*BY>; d = <*D2011-11-28 09:21:30 +0000>; data = <[AAEC]>; }".utf8)
        #expect(refusedInCoreFoundationMode(text))
        if let cf = CoreFoundationVerdict.reads(text) { #expect(!cf) }
        let (value, format, beyond) = try readByDefault(text)
        #expect(format == .openStep)
        #expect(beyond)
        #expect(value == Self.dictionary([
            ("i", .integer(PropertyListInteger(87))), ("r", .real(3.5)), ("b", .bool(true)),
            ("d", .date(Date(timeIntervalSince1970: 1_322_472_090))), ("data", .data(Data([0, 1, 2]))),
        ]))
    }

    @Test func unquotedStringsPastASCIIAreReadWithAWarning() throws {
        let text = Data("{ not_quoted = クオート無し; }".utf8)
        #expect(refusedInCoreFoundationMode(text))
        if let cf = CoreFoundationVerdict.reads(text) { #expect(!cf) }
        let (value, _, beyond) = try readByDefault(text)
        #expect(beyond)
        #expect(value == Self.dictionary([("not_quoted", "クオート無し")]))
    }

    @Test func xmlInUTF16WithoutAMarkIsRead() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist version=\"1.0\"><dict><key>a</key><string>é✅</string></dict></plist>\n"
        for bigEndian in [true, false] {
            var data = Data()
            for unit in xml.utf16 {
                let swapped = bigEndian ? unit.bigEndian : unit.littleEndian
                withUnsafeBytes(of: swapped) { data.append(contentsOf: $0) }
            }
            #expect(refusedInCoreFoundationMode(data))
            if let cf = CoreFoundationVerdict.reads(data) { #expect(!cf) }
            let (value, format, beyond) = try readByDefault(data)
            #expect(format == .xml)
            #expect(beyond)
            #expect(value == Self.dictionary([("a", "é✅")]))
        }
    }

    @Test func commentsInsideStringsAreSkipped() throws {
        let xml = Data("<plist><dict><key><!-- test --></key><string>va<!-- x -->lue</string></dict></plist>".utf8)
        #expect(refusedInCoreFoundationMode(xml))
        if let cf = CoreFoundationVerdict.reads(xml) { #expect(!cf) }
        let (value, _, beyond) = try readByDefault(xml)
        #expect(beyond)
        #expect(value == Self.dictionary([("", "value")]))
    }

    @Test func aGreaterThanInsideAnAttributeEndsNoTag() throws {
        let xml = Data("<plist><dict><key Q=\">\">test</key><string>libplist</string></dict></plist>".utf8)
        // CF ends the tag at the quoted `>`, so its key is `">test`.
        let cf = try PropertyListReader(options: Self.coreFoundationMode).read(xml).value
        #expect(cf == Self.dictionary([("\">test", "libplist")]))
        let (value, _, beyond) = try readByDefault(xml)
        #expect(beyond)
        #expect(value == Self.dictionary([("test", "libplist")]))
    }

    /// A `>` inside a quoted attribute whose tag CF ends elsewhere, where both readings of the
    /// tags give the same value: CF's answer, without a warning (found by FuzzParity; kept in
    /// Tests/FuzzRegressions/FuzzParity/difference-quoted-gt-changing-nothing).
    @Test func aQuotedGreaterThanThatChangesNoValueIsNoDeparture() throws {
        let found = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions/FuzzParity/difference-quoted-gt-changing-nothing")
        let data = try Data(contentsOf: found)
        let cf = try PropertyListReader(options: Self.coreFoundationMode).read(data)
        let (value, format, beyond) = try readByDefault(data)
        #expect(!beyond)
        #expect(format == cf.format)
        #expect(value == cf.value)
    }

    @Test func aDocumentCFReadsIsNeverReadAgainBeyondIt() throws {
        // CF reads `( <0)` as an empty array (a failed element ends it quietly); a GNUstep value
        // in the same place changes nothing, since CF's reading of the document succeeds.
        let (value, _, beyond) = try readByDefault(Data("( <0)".utf8))
        #expect(value == .array([]))
        #expect(!beyond)
        let (plain, _, plainBeyond) = try readByDefault(Data("{ a = b; }".utf8))
        #expect(plain == Self.dictionary([("a", "b")]))
        #expect(!plainBeyond)
    }

    /// The corpus files the conformance contract reads and CF refuses (or, `s11`, reads
    /// otherwise): each is read by default with its warning, and refused in CF's mode.
    @Test(.enabled(if: SharedCorpus.isAvailable, "../shared/corpus is absent"))
    func everyCorpusFileReadBeyondCFSaysSo() throws {
        let paths = SharedCorpus.entries(where: { entry in
            ["dd-plist/test1-ascii-gnustep", "dd-plist/test-ascii-utf-", "go-plist/s04.plist", "go-plist/s11.plist", "libplist/empty_keys.plist"]
                .contains { entry.path.hasPrefix($0) }
                || (entry.path.hasPrefix("dd-plist/test-xml-utf-") && !entry.path.hasSuffix("-bom.plist"))
        })
        #expect(!paths.isEmpty)
        for entry in paths {
            let data = try Data(contentsOf: entry.url)
            let (_, _, beyond) = try readByDefault(data)
            #expect(beyond, "\(entry.path)")
            if entry.path != "go-plist/s11.plist" {
                #expect(refusedInCoreFoundationMode(data), "\(entry.path)")
                if let cf = CoreFoundationVerdict.reads(data) { #expect(!cf, "\(entry.path)") }
            }
        }
    }

    // MARK: lint's strict rules

    @Test func lintRefusesDatesCFReadsButNoWriterWrites() throws {
        for seconds in [Double.nan, .infinity, 274_877_906_944] {
            let data = Self.binary(object: [0x33] + withUnsafeBytes(of: seconds.bitPattern.bigEndian, Array.init))
            let value = try PropertyListReader().read(data).value
            guard case .date(let date) = value else {
                Issue.record("expected a date, read \(value)")
                continue
            }
            #expect(date.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern)
            #expect(refusedStrictly(data))
        }
    }

    @Test func lintRefusesHighBytesInAnASCIIString() throws {
        let data = Self.binary(object: [0x51, 0xFF])
        #expect(try PropertyListReader().read(data).value == "ÿ")
        #expect(refusedStrictly(data))
    }

    @Test func lintCallsABrokenBinaryFileBrokenWhereCFReadsItAsText() throws {
        for text in ["bplist00", "bplistl"] {
            let data = Data(text.utf8)
            let (value, format) = try PropertyListReader().read(data)
            #expect(format == .openStep)
            #expect(value == .string(text))
            #expect(refusedStrictly(data))
        }
    }

    @Test func lintRefusesAnUnterminatedCommentAndAnUnknownEscape() throws {
        let comment = Data("/*\0\0/".utf8)
        #expect(try PropertyListReader().read(comment).value == .dictionary(PropertyListDictionary()))
        #expect(refusedStrictly(comment))
        let escape = Data("{ Hello = \"Worl\\d\"; }".utf8)
        #expect(try PropertyListReader().read(escape).value == Self.dictionary([("Hello", "World")]))
        #expect(refusedStrictly(escape))
        // The escapes with a meaning stay valid.
        #expect(!refusedStrictly(Data("{ a = \"\\\"\\\\\\n\\t\\U00e9\\101\"; }".utf8)))
    }

    @Test func lintRefusesAMalformedDoctypeAndContentAfterTheRoot() throws {
        let doctype = Data("<?xml version=\"1.0\"?>\n<!DOCTYPE plist Pey>\n<plist><string/></plist>\n".utf8)
        #expect(try PropertyListReader().read(doctype).value == "")
        #expect(refusedStrictly(doctype))
        let after = Data("<plist><array/></plist>\n<key>x</key>\n".utf8)
        #expect(try PropertyListReader().read(after).value == .array([]))
        #expect(refusedStrictly(after))
        // Apple's DOCTYPE, and comments and processing instructions after the root, are well-formed.
        let apple = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><true/></plist>
            <!-- done --><?pi x?>

            """.utf8)
        #expect(!refusedStrictly(apple))
    }
}
