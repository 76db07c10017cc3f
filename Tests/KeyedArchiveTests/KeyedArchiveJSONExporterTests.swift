import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

@Suite struct KeyedArchiveJSONExporterTests {
    /// The exporter's output parsed back with Foundation's JSONSerialization, as a consumer would.
    func exported(_ archive: KeyedArchive, expanding: Bool = false) throws -> [String: Any] {
        let data = try KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: expanding)).write(archive)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func objects(_ json: [String: Any]) -> [[String: Any]] { json["objects"] as? [[String: Any]] ?? [] }

    func object(_ uid: Int, in json: [String: Any]) -> [String: Any]? {
        objects(json).first { $0["uid"] as? Int == uid }
    }

    @Test func theOutputParsesAndListsEveryDecodedObjectOnceInUIDOrder() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-ComplexTest.plist"))
        let json = try exported(archive)
        let uids = objects(json).compactMap { $0["uid"] as? Int }
        #expect(uids == archive.decodedObjects.map(\.uid))
        #expect(json["archiver"] as? String == "NSKeyedArchiver")
        #expect(json["version"] as? Int == 100_000)
        #expect((json["root"] as? [String: Any])?["$ref"] as? Int == 1)
        #expect(((json["top"] as? [String: Any])?["root"] as? [String: Any])?["$ref"] as? Int == 1)
        #expect((json["classes"] as? [String: Int])?["NSString"] == 9)
    }

    @Test func referencesAreRefObjectsAndDollarNullIsNull() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-URLTest.plist"))
        let json = try exported(archive)
        let base = try #require(object(2, in: json))
        let fields = try #require(base["fields"] as? [String: Any])
        #expect(fields["NS.base"] is NSNull)
        #expect((fields["NS.relative"] as? [String: Any])?["$ref"] as? Int == 3)
        let url = try #require(object(1, in: json))
        #expect(url["kind"] as? String == "url")
        #expect((url["value"] as? [String: Any])?["absolute"] as? String == "https://www.example.com/foo.xml")
        #expect(url["classChain"] as? [String] == ["NSURL", "NSObject"])
        #expect(url["classUID"] as? Int == 4)
        #expect(url["inline"] as? Bool == false)
    }

    @Test func plainPlistObjectsAreMarkedInline() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-URLTest.plist"))
        let string = try #require(object(3, in: try exported(archive)))
        #expect(string["inline"] as? Bool == true)
        #expect(string["class"] as? String == "NSString")
        #expect(string["classUID"] is NSNull)
        #expect(string["kind"] as? String == "string")
        #expect(string["value"] as? String == "https://www.example.com")
    }

    @Test func whatJSONLacksIsWrittenAsTaggedObjects() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(2, [
                ("blob", .data(Data([0, 1, 2]))),
                ("when", .date(Date(timeIntervalSinceReferenceDate: 12.5))),
                ("nan", .real(.nan)),
                ("low", .real(-.infinity)),
                ("map", .dictionary(PropertyListDictionary([(.integer(PropertyListInteger(1)), .string("one"))]))),
                ("$$escaped", 1),               // an escaped key, read as "$escaped"
            ]),
            TestArchive.classDictionary("Thing"),
        ])
        let fields = try #require(object(1, in: try exported(archive))?["fields"] as? [String: Any])
        #expect((fields["blob"] as? [String: Any])?["$data"] as? String == "AAEC")
        #expect((fields["when"] as? [String: Any])?["$date"] as? Double == 12.5)
        #expect((fields["nan"] as? [String: Any])?["$real"] as? String == "nan")
        #expect((fields["low"] as? [String: Any])?["$real"] as? String == "-inf")
        let pairs = try #require((fields["map"] as? [String: Any])?["$dictionary"] as? [[Any]])
        #expect(pairs.first?.first as? Int == 1 && pairs.first?.last as? String == "one")
        #expect(fields["$escaped"] as? Int == 1)
    }

    @Test func eachKindHasItsValue() throws {
        let archive = try KeyedArchive(data: try TestArchive.fixture("NSKeyedUnarchiver-ComplexTest.plist"))
        let json = try exported(archive)
        let dictionary = try #require(object(1, in: json))
        #expect(dictionary["kind"] as? String == "dictionary")
        let pairs = try #require(dictionary["value"] as? [[[String: Int]]])
        #expect(pairs.count == 4)
        #expect(pairs.first?.first?["$ref"] == 2)
        #expect(object(7, in: json)?["kind"] as? String == "null")
        #expect(object(10, in: json)?["value"] as? Int == 34545)
        #expect(object(10, in: json)?["numberType"] as? String == "integer")
        #expect(object(21, in: json)?["value"] as? String == "71DC068E-3420-45FF-919E-3A267D55EC22")
        let array = try #require(object(6, in: json)?["value"] as? [[String: Int]])
        #expect(array.map { $0["$ref"] } == [7, 9, 10, 11])
    }

    @Test func aCycleIsJustAReferenceToAnEarlierObject() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(2, [("next", .uid(1))]),
            TestArchive.classDictionary("Node"),
        ])
        let node = try #require(object(1, in: try exported(archive)))
        #expect(((node["fields"] as? [String: Any])?["next"] as? [String: Int])?["$ref"] == 1)
    }

    @Test func dataCarriesItsNestedPayloadLabelAndExpandsWhenAsked() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(5, [("image", .uid(2)), ("json", .uid(3)), ("archive", .uid(4))]),
            .data(TestArchive.pngHeader),
            .data(Data("{\"id\": 7, \"tags\": [\"a\"]}".utf8)),
            .data(TestArchive.binary(["inside"])),
            TestArchive.classDictionary("Box"),
        ])
        let labelled = try exported(archive)
        #expect(object(2, in: labelled)?["nested"] as? String == "PNG image 64×48")
        #expect(object(2, in: labelled)?["nestedKind"] as? String == "png")
        #expect(object(2, in: labelled)?["summary"] as? String == "33 bytes, PNG image 64×48")
        #expect(object(3, in: labelled)?["expanded"] == nil)

        let expanded = try exported(archive, expanding: true)
        let json = try #require(object(3, in: expanded)?["expanded"] as? [String: Any])
        #expect(json["format"] as? String == "json")
        #expect((json["value"] as? [String: Any])?["id"] as? Int == 7)
        let inner = try #require((object(4, in: expanded)?["expanded"] as? [String: Any])?["archive"] as? [String: Any])
        #expect(objects(inner).first?["value"] as? String == "inside")
        #expect(object(2, in: expanded)?["expanded"] == nil, "a PNG has nothing to expand")
    }

    @Test func aMangledClassKeepsItsWrittenAndReadableNames() throws {
        let archive = try TestArchive.decode([
            TestArchive.object(2, []),
            TestArchive.classDictionary("_TtC8Eventail17SerializableColor", hints: ["NSColor"]),
        ])
        let json = try exported(archive)
        let color = try #require(object(1, in: json))
        #expect(color["class"] as? String == "_TtC8Eventail17SerializableColor")
        #expect(color["readableClass"] as? String == "Eventail.SerializableColor")
        #expect(color["classHints"] as? [String] == ["NSColor"])
        #expect(color["kind"] as? String == "object")
        #expect(color["value"] is NSNull)
    }
}

@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct KeyedArchiveJSONExporterCorpusTests {
    @Test func everyValidArchiveInTheCorpusExportsEachObjectExactlyOnce() throws {
        let rows = ArchiveCorpus.rows.filter { $0.archive && $0.invalid == "no" }
        var failures: [String] = []
        for row in rows {
            guard let archive = try? KeyedArchive(data: try ArchiveCorpus.data(row.path)) else { continue }
            let data = try KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: true)).write(archive)
            guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let objects = json["objects"] as? [[String: Any]] else {
                failures.append("\(row.path): not a JSON object")
                continue
            }
            let uids = objects.compactMap { $0["uid"] as? Int }
            if uids != archive.decodedObjects.map(\.uid) { failures.append("\(row.path): objects \(uids)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
