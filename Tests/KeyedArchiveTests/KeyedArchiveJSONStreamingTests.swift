import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// `KeyedArchiveJSONExporter.write` streams the JSON; it must give exactly the bytes of writing
/// `document(_:)` with `JSONPropertyListWriter`, the way it was first written.
enum ExporterReference {
    static let exporters: [(String, KeyedArchiveJSONExporter)] = [
        ("pretty", KeyedArchiveJSONExporter()),
        ("compact", KeyedArchiveJSONExporter(prettyPrinted: false)),
        ("expanding", KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: true))),
        ("expanding once, compact", KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: true, maximumNesting: 1), prettyPrinted: false)),
        ("without default members", KeyedArchiveJSONExporter(prettyPrinted: false, omitsDefaultMembers: true)),
        ("without default members, pretty, expanding", KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: true), omitsDefaultMembers: true)),
    ]

    /// The exporter's bytes as the document tree gives them.
    static func viaDocument(_ exporter: KeyedArchiveJSONExporter, _ archive: KeyedArchive) throws -> Data {
        var options = JSONWriteOptions()
        options.outputFormatting = exporter.prettyPrinted ? [.prettyPrinted, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        var data = try JSONPropertyListWriter(options: options).write(exporter.document(archive))
        data.append(0x0A)
        return data
    }

    /// The exporter's bytes handed on in pieces of `chunkSize`, put back together.
    static func viaChunks(_ exporter: KeyedArchiveJSONExporter, _ archive: KeyedArchive, chunkSize: Int) throws -> Data {
        var data = Data()
        try exporter.write(archive, chunkSize: chunkSize) { data.append(contentsOf: $0) }
        return data
    }

    /// The exporters whose streamed output, whole or in pieces of 1 and 300 bytes, differs
    /// from the document's, by name.
    static func differences(_ archive: KeyedArchive) throws -> [String] {
        try exporters.compactMap { name, exporter in
            let expected = try viaDocument(exporter, archive)
            guard try exporter.write(archive) == expected else { return name }
            for size in [1, 300] where try viaChunks(exporter, archive, chunkSize: size) != expected {
                return "\(name) in pieces of \(size)"
            }
            return nil
        }
    }

    /// Every kind of content and of inline value, and keys and strings that need escaping.
    static func everyKindArchive() -> KeyedArchive {
        var b = KeyedArchiveBuilder()
        let items: [ArchivedValue] = [
            b.string("plain"), b.string("quote \" backslash \\ slash / tab \t nul \u{0} del \u{7F} é 😀"),
            b.number(.integer(PropertyListInteger(-42))), b.number(.integer(PropertyListInteger(UInt64.max))),
            b.number(.real(0.1)), b.number(.real(-0.0)), b.number(.real(1e15)), b.number(.real(12345678901234567)),
            b.number(.real(.nan)), b.number(.real(-.infinity)), b.number(.bool(true)),
            b.date(Date(timeIntervalSinceReferenceDate: 0)), b.date(Date(timeIntervalSinceReferenceDate: -1e300)),
            b.date(Date(timeIntervalSinceReferenceDate: 12.25)),
            // Fractions of a second: rounded to six digits, one that rounds away, one on a tie.
            b.date(Date(timeIntervalSinceReferenceDate: 0.1)), b.date(Date(timeIntervalSinceReferenceDate: 59.9999999)),
            b.date(Date(timeIntervalSinceReferenceDate: -0.0000005)), b.date(Date(timeIntervalSinceReferenceDate: 700_000_060.5)),
            b.data(Data()), b.data(Data([0xFF, 0xFE, 0x3F])), b.null(), b.uuid(UUID()),
            b.array([]), b.set([b.string("m")]), b.dictionary(keys: [], values: []),
            b.dictionary(keys: [b.number(.integer(PropertyListInteger(1)))], values: [b.string("one")]),
            b.url("relative", base: b.url("https://example.com/dir/")),
            b.uiColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.5),
            b.object("Custom", fields: [
                ArchivedField(key: "$escaped \"key\"", value: .inline(.string("v"))),
                ArchivedField(key: "inline", value: .inline(.array([.real(.infinity), .data(Data([1])), .uid(3), .null,
                                                                     .dictionary(PropertyListDictionary([(.integer(PropertyListInteger(2)), .bool(false))])),
                                                                     .set([.date(Date(timeIntervalSinceReferenceDate: 1))]),
                                                                     .invalidUTF16String([0xD800, 0x41])]))),
                ArchivedField(key: "nothing", value: .null),
                // The same key to `==`, but not the same bytes.
                ArchivedField(key: "caf\u{E9}", value: .inline(.integer(PropertyListInteger(1)))),
                ArchivedField(key: "cafe\u{301}", value: .inline(.integer(PropertyListInteger(2)))),
                ArchivedField(key: "nothing", value: .array([.null, .inline(.integer(PropertyListInteger(7)))])),
            ]),
            b.object("Empty", fields: []),
        ]
        let root = b.array(items)
        return b.archive(root: root)
    }
}

@Suite struct KeyedArchiveJSONStreamingTests {
    @Test(arguments: ["NSAttributedString.archive", "NSKeyedUnarchiver-ComplexTest.plist", "NSKeyedUnarchiver-URLTest.plist"])
    func fixturesStreamTheBytesOfTheDocument(_ name: String) throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture(name))
        #expect(try ExporterReference.differences(archive).isEmpty)
    }

    @Test func archiveFixturesStreamTheBytesOfTheDocument() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/archives")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            guard let archive = try? KeyedArchive(data: try Data(contentsOf: directory.appendingPathComponent(name))) else { continue }
            #expect(try ExporterReference.differences(archive).isEmpty, "\(name)")
        }
    }

    @Test func recordsStreamTheBytesOfTheDocument() throws {
        let archive = try KeyedArchive(data: try FlatDecoding.records(200))
        #expect(try ExporterReference.differences(archive).isEmpty)
    }

    @Test func aLargeArchiveIsHandedOnInPiecesNoBiggerThanAChunkAndAnObject() throws {
        let archive = try KeyedArchive(data: try FlatDecoding.records(2_000))
        var sizes: [Int] = []
        try KeyedArchiveJSONExporter().write(archive, chunkSize: 16_384) { sizes.append($0.count) }
        #expect(sizes.count > 50)
        // A piece ends after the object that passed the chunk size. A record's objects are
        // well under 4 kB of JSON; only the piece with the root array of 2,000 references,
        // itself about 190 kB, is bigger.
        #expect(sizes.filter { $0 > 16_384 + 4_096 }.count == 1)
        #expect(sizes.reduce(0, +) == (try KeyedArchiveJSONExporter().write(archive)).count)
    }

    /// Every kind of content and of inline value, and keys and strings that need escaping.
    @Test func everyKindStreamsTheBytesOfTheDocument() throws {
        let archive = ExporterReference.everyKindArchive()
        #expect(try ExporterReference.differences(archive).isEmpty)
        // And read back from its bytes (keeping the lone surrogate).
        var options = KeyedArchiveReadOptions()
        options.propertyList.preservesInvalidUTF16 = true
        let read = try KeyedArchive(data: try KeyedArchiveWriter().write(archive), options: options)
        #expect(try ExporterReference.differences(read).isEmpty)
    }

    @Test func anArchiveWithoutObjectsStreamsTheBytesOfTheDocument() throws {
        let archive = KeyedArchive(top: [], root: nil, objects: [], plist: .null)
        #expect(try ExporterReference.differences(archive).isEmpty)
    }
}

@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct KeyedArchiveJSONStreamingCorpusTests {
    @Test func everyCorpusArchiveStreamsTheBytesOfTheDocument() throws {
        var failures: [String] = []
        for row in ArchiveCorpus.rows where row.archive {
            guard let archive = try? KeyedArchive(data: try ArchiveCorpus.data(row.path)) else { continue }
            let differences = try ExporterReference.differences(archive)
            if !differences.isEmpty { failures.append("\(row.path): \(differences)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
