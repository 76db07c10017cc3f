import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList
import Testing
import TypedStreamFixtures

/// The same value gives the same payload whichever archiver wrote it: NSArchiver's typedstream
/// or NSKeyedArchiver's keyed archive, each as Apple lays it out.
struct TypedStreamPayloadTests {
    typealias F = FoundationTypedStreamObjects

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func typedStream(_ root: TypedStreamObjectSpec) throws -> KeyedArchive {
        var writer = TypedStreamWriter()
        writer.writeRoot(root)
        return try KeyedArchive(data: writer.data)
    }

    static func json(_ archive: KeyedArchive) throws -> String {
        String(decoding: try PayloadMapper().json(of: archive), as: UTF8.self)
    }

    @Test func anNSColorGivesTheSamePayloadFromBothArchivers() throws {
        let streamed = try Self.typedStream(F.color(kind: 1, components: [0.2, 0.9960784316, 0.4, 1]))
        // As macOS's NSKeyedArchiver writes the same calibrated color (swiftgen's colors.clr has
        // this very color).
        var builder = KeyedArchiveBuilder()
        let color = builder.object("NSColor", fields: [
            ArchivedField(key: "NSRGB", value: .inline(.data(Data("0.200000003 0.9960784316 0.400000006\0".utf8)))),
            ArchivedField(key: "NSColorSpace", value: .inline(.integer(PropertyListInteger(1)))),
        ])
        let keyed = try KeyedArchive(data: try KeyedArchiveWriter().write(builder.archive(root: color)))
        #expect(try Self.json(streamed) == Self.json(keyed))
        #expect(try Self.json(streamed).contains("\"green\":0.9960784316"))
    }

    @Test func anNSAttributedStringIsTheArchiveMacOSWroteAndGivesItsPayload() throws {
        // The string and runs of swift-corelibs-foundation's NSAttributedString.archive, written
        // by macOS 10.14 (Fixtures/plist/NSAttributedString.archive):
        // "0123456789", runs 1,1,4,2,1,1 over dictionaries 0,1,2,1,3,0, where 2 and 3 are equal
        // dictionaries that share their values.
        let size = F.string("Size"), font = F.string("Font"), n456 = F.number(456), times = F.string("Times")
        let empty = F.dictionary([])
        let helvetica = F.dictionary([(font, F.string("Helvetica")), (size, F.number(123))])
        let timesA = F.dictionary([(size, n456), (font, times)])
        let timesB = F.dictionary([(size, n456), (font, times)])
        let streamed = try Self.typedStream(F.attributedString(F.string("0123456789"), runs: [
            (empty, 1), (helvetica, 1), (timesA, 4), (helvetica, 2), (timesB, 1), (empty, 1),
        ], mutable: false))
        let apple = try KeyedArchive(data: try Data(contentsOf: Self.fixtures.appendingPathComponent("plist/NSAttributedString.archive")))
        #expect(try Self.json(streamed) == Self.json(apple))
        #expect(try Self.json(streamed) == "\"0123456789\"")
        // And rewritten as a keyed archive, it is the graph macOS wrote.
        let rewritten = try KeyedArchive(data: try KeyedArchiveWriter().write(streamed))
        #expect(rewritten.isEquivalent(to: apple))
    }

    @Test func anArrayOfDictionariesGivesTheSamePayloadFromBothArchivers() throws {
        let streamed = try Self.typedStream(F.array([
            F.dictionary([(F.string("name"), F.string("BowTie")), (F.string("rating"), F.double(4.5)), (F.string("worn"), F.bool(true))]),
            F.dictionary([(F.string("name"), F.string("Ascot")), (F.string("rating"), F.number(3)), (F.string("worn"), F.bool(false))]),
        ]))
        var b = KeyedArchiveBuilder()
        let first = b.dictionary(keys: [b.string("name"), b.string("rating"), b.string("worn")],
                                 values: [b.string("BowTie"), b.number(.real(4.5)), b.number(.bool(true))])
        let second = b.dictionary(keys: [b.string("name"), b.string("rating"), b.string("worn")],
                                  values: [b.string("Ascot"), b.number(.integer(PropertyListInteger(3))), b.number(.bool(false))])
        let root = b.array([first, second])
        let keyed = try KeyedArchive(data: try KeyedArchiveWriter().write(b.archive(root: root)))
        let (fromStream, fromKeyed) = (try Self.json(streamed), try Self.json(keyed))
        #expect(fromStream == fromKeyed)
        #expect(try Self.json(streamed) == #"[{"name":"BowTie","rating":4.5,"worn":true},{"name":"Ascot","rating":3,"worn":false}]"#)
    }

    @Test func aCodableTypeDecodesFromATypedStream() throws {
        struct Tie: Decodable, Equatable { var name: String; var rating: Double }
        var writer = TypedStreamWriter()
        writer.writeRoot(F.dictionary([(F.string("name"), F.string("BowTie")), (F.string("rating"), F.double(4.5))]))
        let tie = try KeyedArchiveDecoder(allowList: .transformerDefault).decode(Tie.self, from: writer.data)
        #expect(tie == Tie(name: "BowTie", rating: 4.5))
    }
}
