@testable import CoreDataStore
import StoreFixtures
@testable import KeyedBlobs
import Foundation
import KeyedArchive
import PropertyList
import Testing

@Suite struct CoreDataStoreValueTests {
    static let uuid = "3ECB13DD-C734-46B4-B91B-7DB6F671DF21"

    @Test func anExternalReferenceIsTheMarkerTwoThenAUUIDInASCII() {
        let reference = Data([0x02] + Array(Self.uuid.utf8))
        #expect(ExternalBinaryStorage.reference(in: reference)?.fileName == Self.uuid)
        // Core Data may end the name with a NUL.
        #expect(ExternalBinaryStorage.reference(in: reference + Data([0])) != nil)
    }

    static let lookalikes: [Data] = {
        let name = Data(uuid.utf8)
        let marker = Data([0x02])
        return [
            marker + Data("not-a-uuid-but-thirty-six-characters".utf8), // right length, not a UUID
            Data([0x01]) + name,                                           // inline marker, not a reference
            marker + name + Data("x".utf8),                                // a trailing byte
            marker + name.dropLast(),                                      // one character short
        ]
    }()

    @Test(arguments: lookalikes)
    func bytesThatOnlyLookLikeAReferenceAreNotOne(bytes: Data) {
        #expect(ExternalBinaryStorage.reference(in: bytes) == nil)
    }

    @Test func theReferencePointsIntoTheStoresSupportFolder() {
        let store = URL(fileURLWithPath: "/data/App/BowTies.sqlite")
        let file = ExternalBinaryStorage.Reference(fileName: Self.uuid).fileURL(store: store)
        #expect(file.path == "/data/App/.BowTies_SUPPORT/_EXTERNAL_DATA/\(Self.uuid)")
    }

    @Test func theInlineHeaderIsReadOnlyWhenARecognizedValueFollows() {
        let classifier = StoredValueClassifier()
        let png = TinyPNG.solid(width: 2, height: 2, red: 1, green: 2, blue: 3)
        let framed = classifier.classify(ExternalBinaryStorage.framedInline(png))
        #expect(framed.kind == .image)
        #expect(framed.framing == .inline)
        #expect(framed.detail == "PNG image 2×2")
        let arbitrary = classifier.classify(Data([0x01, 0x99, 0x42]))
        #expect(arbitrary.kind == .other)
        #expect(arbitrary.framing == .none)
    }

    @Test func eachKindIsToldFromItsBytes() throws {
        let classifier = StoredValueClassifier()
        var builder = KeyedArchiveBuilder()
        let root = builder.string("hello")
        let archive = KeyedArchiveWriter()
        #expect(classifier.classify(try archive.write(builder.archive(root: root))).kind == .keyedArchiveBinary)
        #expect(classifier.classify(try archive.write(builder.archive(root: root), format: .xml)).kind == .keyedArchiveXML)
        #expect(classifier.classify(BinaryPropertyListWriter().write(["a": 1])).kind == .propertyList)
        #expect(classifier.classify(Data("{\"a\":1}".utf8)).kind == .json)
        #expect(classifier.classify(Data("bplist00garbage".utf8)).kind == .unreadable)
        #expect(classifier.classify(Data("plain words".utf8), isText: true).kind == .text)
        #expect(classifier.classify(Data([0xDE, 0xAD])).kind == .other)
        // Markup that is not a plist is text, not a damaged plist.
        #expect(classifier.classify(Data("<p>hi</p>".utf8), isText: true).kind == .text)
    }

    @Test func theVerifierCatchesBytesThatDoNotDecodeToThePayload() {
        let payload: PropertyListValue = ["red": 0.5, "when": .date(Date(timeIntervalSinceReferenceDate: 10.25)), "blob": .data(Data([1, 2]))]
        let json = PayloadVerifier(format: .json(JSONWriteOptions()), readOptions: .default)
        #expect(json.mismatch(Data(#"{"red":0.5,"when":10.25,"blob":"AQI="}"#.utf8), payload: payload) == nil)
        #expect(json.mismatch(Data(#"{"red":0.25,"when":10.25,"blob":"AQI="}"#.utf8), payload: payload)?.contains(".red") == true)
        #expect(json.mismatch(Data(#"{"red":0.5,"blob":"AQI="}"#.utf8), payload: payload) != nil)
        #expect(json.mismatch(Data("{".utf8), payload: payload)?.contains("does not read back") == true)
        // 1 and 1.0 are the same number to JSONDecoder.
        #expect(json.mismatch(Data("1".utf8), payload: .real(1)) == nil)
    }

    @Test func xmlDatesMayLoseFractionsOfASecondButNothingElse() throws {
        let payload: PropertyListValue = ["when": .date(Date(timeIntervalSinceReferenceDate: 100.75)), "n": 3]
        let xml = try XMLPropertyListWriter().write(payload)
        let verifier = PayloadVerifier(format: .xml, readOptions: .default)
        #expect(verifier.mismatch(xml, payload: payload) == nil)
        #expect(verifier.mismatch(xml, payload: ["when": .date(Date(timeIntervalSinceReferenceDate: 100.75)), "n": 4]) != nil)
    }

    @Test func aBareJSONValueWrittenByAnEarlierRunCountsAsConverted() {
        let converter = ValueConverter(options: MigrationOptions(target: .json))
        #expect(converter.convert(Data("\"https://example.com\"".utf8)) == .skipped(.alreadyConverted))
        #expect(converter.convert(nil) == .skipped(.null))
    }
}
