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

/// The compact form (`omitsDefaultMembers`) read back: every member it leaves out filled in
/// with its default, as the schema (docs/inspect-json.md) gives them, which must give the full document.
enum CompactForm {
    /// The full document as a reader gets it: written, read back, summaries left out (the
    /// compact form has none: they are text for people, made from `value`).
    static func full(_ archive: KeyedArchive, expanding: Bool) throws -> PropertyListValue {
        let data = try KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: expanding), prettyPrinted: false).write(archive)
        return normalized(try JSONPropertyListReader().read(data), droppingSummaries: true)
    }

    /// The compact form read back, defaults filled in.
    static func readBack(_ archive: KeyedArchive, expanding: Bool) throws -> PropertyListValue {
        let data = try KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: expanding), prettyPrinted: false,
                                                omitsDefaultMembers: true).write(archive)
        return normalized(expandDocument(try JSONPropertyListReader().read(data)), droppingSummaries: false)
    }

    static func entries(_ value: PropertyListValue) -> [(String, PropertyListValue)] {
        guard case .dictionary(let d) = value else { return [] }
        return d.map { ($0.key.stringValue ?? "", $0.value) }
    }

    /// A document with every object's default members filled in.
    static func expandDocument(_ document: PropertyListValue) -> PropertyListValue {
        var described: [Int64: [(String, PropertyListValue)]] = [:]
        return .dictionary(PropertyListDictionary(entries(document).map { key, value in
            guard key == "objects", case .array(let objects) = value else { return (.string(key), value) }
            return (.string(key), .array(objects.map { expandObject($0, described: &described) }))
        }))
    }

    static func expandObject(_ object: PropertyListValue, described: inout [Int64: [(String, PropertyListValue)]]) -> PropertyListValue {
        var members = Dictionary(entries(object), uniquingKeysWith: { first, _ in first })
        let kind = members["kind"]?.stringValue ?? ""
        if let classUID = members["classUID"]?.integerValue?.int64Value {
            if let name = members["class"] {
                // The first object of its class description gives the class members.
                members["readableClass"] = members["readableClass"] ?? name
                members["classHints"] = members["classHints"] ?? .array([])
                described[classUID] = ["class", "readableClass", "classChain", "classHints"].compactMap { k in members[k].map { (k, $0) } }
            } else {
                for (k, v) in described[classUID] ?? [] { members[k] = v }
            }
            members["inline"] = .bool(false)
        } else {
            // An inline object: its class by its kind.
            let name: PropertyListValue = ["string": "NSString", "number": "NSNumber", "data": "NSData", "date": "NSDate"][kind].map { .string($0) } ?? "NSObject"
            members["class"] = name
            members["readableClass"] = name
            members["classChain"] = .array([name])
            members["classHints"] = .array([])
            members["classUID"] = .null
            members["inline"] = .bool(true)
        }
        let fields = members["fields"] ?? .dictionary(PropertyListDictionary())
        members["fields"] = fields
        if members["value"] == nil {
            let field = Dictionary(entries(fields), uniquingKeysWith: { first, _ in first })
            switch kind {
            case "array", "set", "orderedSet":
                members["value"] = field["NS.objects"]
            case "dictionary":
                if case .array(let keys)? = field["NS.keys"], case .array(let values)? = field["NS.objects"] {
                    members["value"] = .array(zip(keys, values).map { .array([$0, $1]) })
                }
            default:
                members["value"] = .null
            }
        }
        if kind == "number", members["numberType"] == nil {
            switch members["value"] {
            case .bool?: members["numberType"] = "bool"
            case .integer?: members["numberType"] = "integer"
            default: members["numberType"] = "real"
            }
        }
        // A nested archive is a document of the same form.
        if case .dictionary(let expanded)? = members["expanded"], let archive = expanded["archive"] {
            var inner = expanded
            inner["archive"] = expandDocument(archive)
            members["expanded"] = .dictionary(inner)
        }
        return .dictionary(PropertyListDictionary(members.map { (.string($0.key), $0.value) }))
    }

    /// Dictionaries with their entries in key order (JSON objects are unordered), summaries
    /// left out when asked.
    static func normalized(_ value: PropertyListValue, droppingSummaries: Bool) -> PropertyListValue {
        switch value {
        case .array(let a): return .array(a.map { normalized($0, droppingSummaries: droppingSummaries) })
        case .dictionary(let d):
            let sorted = d.filter { !(droppingSummaries && $0.key == "summary") }
                .map { ($0.key, normalized($0.value, droppingSummaries: droppingSummaries)) }
                .sorted { ($0.0.stringValue ?? "") < ($1.0.stringValue ?? "") }
            return .dictionary(PropertyListDictionary(sorted))
        default: return value
        }
    }

    /// Archives whose compact form does not read back as the full document, by name.
    static func differences(_ archives: [(String, KeyedArchive)]) throws -> [String] {
        var out: [String] = []
        for (name, archive) in archives {
            for expanding in [false, true] where try readBack(archive, expanding: expanding) != full(archive, expanding: expanding) {
                out.append(expanding ? "\(name) (expanded)" : name)
            }
        }
        return out
    }
}

@Suite struct KeyedArchiveJSONCompactFormTests {
    @Test func theCompactFormReadsBackAsTheFullDocument() throws {
        var archives: [(String, KeyedArchive)] = [("every kind", ExporterReference.everyKindArchive()),
                                                   ("records", try KeyedArchive(data: try FlatDecoding.records(100)))]
        for name in ["NSAttributedString.archive", "NSKeyedUnarchiver-ComplexTest.plist", "NSKeyedUnarchiver-URLTest.plist"] {
            archives.append((name, try KeyedArchive(data: try TestArchive.fixture(name))))
        }
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/archives")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            if let archive = try? KeyedArchive(data: try Data(contentsOf: directory.appendingPathComponent(name))) { archives.append((name, archive)) }
        }
        #expect(archives.count > 8)
        #expect(try CompactForm.differences(archives).isEmpty)
    }

    @Test func theCompactFormOfRecordsIsAThirdOfTheFullDocument() throws {
        let archive = try KeyedArchive(data: try FlatDecoding.records(1_000))
        let compact = try KeyedArchiveJSONExporter(prettyPrinted: false, omitsDefaultMembers: true).write(archive)
        let full = try KeyedArchiveJSONExporter().write(archive)
        #expect(compact.count * 3 < full.count)
        let json = try #require(try JSONSerialization.jsonObject(with: compact) as? [String: Any])
        let objects = json["objects"] as? [[String: Any]] ?? []
        // Each class is described once, by its first object; inline objects have no class members.
        #expect(objects.filter { $0["class"] as? String == "NSDictionary" }.count == 1)
        #expect(objects.allSatisfy { $0["summary"] == nil && $0["inline"] == nil })
    }
}

@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct KeyedArchiveJSONExporterCorpusTests {
    @Test func everyValidArchiveInTheCorpusReadsBackFromItsCompactForm() throws {
        var archives: [(String, KeyedArchive)] = []
        for row in ArchiveCorpus.rows where row.archive && row.invalid == "no" {
            if let archive = try? KeyedArchive(data: try ArchiveCorpus.data(row.path)) { archives.append((row.path, archive)) }
        }
        #expect(archives.count > 50)
        #expect(try CompactForm.differences(archives).isEmpty)
    }

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
