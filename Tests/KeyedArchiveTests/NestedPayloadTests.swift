import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// Builds small keyed archives in the layout NSKeyedArchiver writes, for the renderer tests.
enum TestArchive {
    /// A class description: `{$classname, $classes}` (plus `$classhints` when given).
    static func classDictionary(_ name: String, _ chain: [String]? = nil, hints: [String] = []) -> PropertyListValue {
        var d = PropertyListDictionary([
            (.string("$classname"), .string(name)),
            (.string("$classes"), .array((chain ?? [name, "NSObject"]).map { .string($0) })),
        ])
        if !hints.isEmpty { d.append(key: "$classhints", value: .array(hints.map { .string($0) })) }
        return .dictionary(d)
    }

    /// An object of the class at `classUID`, with its fields in order.
    static func object(_ classUID: UInt64, _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        var d = PropertyListDictionary()
        for (k, v) in fields { d.append(key: .string(k), value: v) }
        d.append(key: "$class", value: .uid(classUID))
        return .dictionary(d)
    }

    /// The archive's plist: `$objects` is `$null` then `objects` (so the first is UID 1).
    static func plist(_ objects: [PropertyListValue], top: [(String, UInt64)] = [("root", 1)]) -> PropertyListValue {
        .dictionary(PropertyListDictionary([
            (.string("$version"), .integer(PropertyListInteger(100_000))),
            (.string("$archiver"), .string("NSKeyedArchiver")),
            (.string("$top"), .dictionary(PropertyListDictionary(top.map { (.string($0.0), .uid($0.1)) }))),
            (.string("$objects"), .array(["$null"] + objects)),
        ]))
    }

    static func binary(_ objects: [PropertyListValue], top: [(String, UInt64)] = [("root", 1)]) -> Data {
        BinaryPropertyListWriter().write(plist(objects, top: top))
    }

    static func decode(_ objects: [PropertyListValue], top: [(String, UInt64)] = [("root", 1)]) throws -> KeyedArchive {
        try KeyedArchive(plist: plist(objects, top: top))
    }

    /// An archive whose root is an NSData holding `payload`.
    static func dataArchive(_ payload: Data) -> Data {
        binary([object(2, [("NS.data", .data(payload))]), classDictionary("NSMutableData", ["NSMutableData", "NSData", "NSObject"])])
    }

    static func fixture(_ name: String) throws -> Data {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: repo.appendingPathComponent("Fixtures/plist/\(name)"))
    }

    /// The first 33 bytes of a 64×48 PNG: signature, then the IHDR chunk.
    static let pngHeader = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,   // signature
                                 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,   // length 13, "IHDR"
                                 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x30,   // width 64, height 48
                                 0x08, 0x06, 0x00, 0x00, 0x00, 0x6A, 0x3C, 0x14, 0x9B])  // depth, color type…, CRC

    static let plainPlist: PropertyListValue = ["answer": 42, "name": "nested"]
}

@Suite struct NestedPayloadTests {
    @Test func aPNGIsIdentifiedWithItsSizeFromTheIHDRChunk() {
        #expect(NestedPayload.identify(TestArchive.pngHeader) == .png(width: 64, height: 48))
        #expect(NestedPayload.identify(TestArchive.pngHeader)?.description == "PNG image 64×48")
    }

    @Test func aPNGCutOffBeforeItsIHDRChunkIsStillAPNGWithoutASize() {
        let truncated = TestArchive.pngHeader.prefix(10)
        #expect(NestedPayload.identify(truncated) == .png(width: 0, height: 0))
        #expect(NestedPayload.identify(truncated)?.description == "PNG image")
    }

    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10], NestedPayload.jpeg),                  // JFIF APP0 marker
        (Array("GIF89a".utf8) + [0x01, 0x00], .gif),
        (Array("GIF87a".utf8) + [0x01, 0x00], .gif),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heic),              // box size 24, brand heic
        ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0], .heic),
        ([0, 0, 0, 0x18] + Array("ftypmsf1".utf8) + [0, 0, 0, 0], .heic),
        (Array("%PDF-1.7\n".utf8), .pdf),
        ([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0], .gzip),
        ([0x78, 0x9C, 0x03, 0x00], .zlib),                                             // default compression
        ([0x78, 0x01, 0x03, 0x00], .zlib),                                             // fastest
        ([0x78, 0x5E, 0x03, 0x00], .zlib),
        ([0x78, 0xDA, 0x03, 0x00], .zlib),                                             // best
    ] as [([UInt8], NestedPayload)])
    func binaryFormatsAreIdentifiedByTheirFirstBytes(bytes: [UInt8], expected: NestedPayload) {
        #expect(NestedPayload.identify(Data(bytes)) == expected)
    }

    @Test(arguments: [
        [0x78, 0x9D, 0x03, 0x00],                                                       // FCHECK wrong: 0x789D is not a multiple of 31
        [0x00, 0x00, 0x00, 0x18] + Array("ftypmp42".utf8),                             // an MP4 video, not HEIF
        Array("hello, world".utf8),
        Array("0.176 0.165 0.51".utf8),                                                // NSRGB text
        Array("{not json".utf8),
        Array("<?xml version=\"1.0\"?><html/>".utf8),                                  // XML, not a plist
        [],
    ] as [[UInt8]])
    func otherBytesAreNotIdentified(bytes: [UInt8]) {
        #expect(NestedPayload.identify(Data(bytes)) == nil)
    }

    @Test func binaryAndXMLPlistsThatAreNotArchivesAreNamedByFormat() throws {
        let binary = BinaryPropertyListWriter().write(TestArchive.plainPlist)
        let xml = try XMLPropertyListWriter().write(TestArchive.plainPlist)
        #expect(NestedPayload.identify(binary) == .propertyList(.binary))
        #expect(NestedPayload.identify(xml) == .propertyList(.xml))
        #expect(NestedPayload.identify(xml)?.description == "XML property list")
    }

    @Test func anXMLPlistInUTF16IsIdentified() throws {
        let xml = String(decoding: try XMLPropertyListWriter().write(TestArchive.plainPlist), as: UTF8.self)
            .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        let utf16 = Data([0xFE, 0xFF]) + (try #require(xml.data(using: .utf16BigEndian)))   // byte-order mark, then big-endian text
        #expect(NestedPayload.identify(utf16) == .propertyList(.xml))
    }

    @Test func aPlistWithArchiverKeysIsAKeyedArchive() throws {
        let xml = try TestArchive.fixture("NSKeyedUnarchiver-URLTest.plist")
        #expect(NestedPayload.identify(xml) == .keyedArchive(.xml))
        let binary = TestArchive.binary(["hello"])
        #expect(NestedPayload.identify(binary)?.description == "keyed archive (binary property list)")
    }

    @Test func jsonIsIdentifiedOnlyWhenItParses() {
        #expect(NestedPayload.identify(Data("  {\"a\": [1, 2]}".utf8)) == .json)
        #expect(NestedPayload.identify(Data("[true]".utf8)) == .json)
        #expect(NestedPayload.identify(Data("{\"a\": }".utf8)) == nil)
    }

    @Test func aCorruptBinaryPlistIsNotIdentified() {
        let bytes = Data(BinaryPropertyListWriter().write(TestArchive.plainPlist).dropLast(5))
        #expect(NestedPayload.identify(bytes) == nil)
    }

    @Test func expandingDecodesANestedArchivePlistAndJSON() throws {
        guard case .keyedArchive(let archive, .binary)? = NestedPayload.expand(TestArchive.binary(["hello"])) else {
            Issue.record("not expanded as an archive")
            return
        }
        #expect(archive.rootObject?.content == .string("hello"))
        let plist = BinaryPropertyListWriter().write(TestArchive.plainPlist)
        #expect(NestedPayload.expand(plist) == .propertyList(TestArchive.plainPlist, format: .binary))
        #expect(NestedPayload.expand(Data("{\"id\": 7}".utf8)) == .json(["id": 7]))
    }

    @Test func binaryPayloadsAreNotExpanded() {
        #expect(NestedPayload.expand(TestArchive.pngHeader) == nil)
        #expect(NestedPayload.expand(Data("plain text".utf8)) == nil)
    }

    @Test func aDamagedInnerArchiveExpandsAsItsPlainPlist() throws {
        // $objects[0] is not "$null": the archive is refused, the plist still reads.
        let broken: PropertyListValue = ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": [:], "$objects": ["x"]]
        let bytes = BinaryPropertyListWriter().write(broken)
        #expect(NestedPayload.identify(bytes) == .keyedArchive(.binary))
        #expect(NestedPayload.expand(bytes) == .propertyList(broken, format: .binary))
    }
}
