import Foundation
import Testing
@testable import ArchivePayload
import KeyedArchive
import PropertyList

@Suite struct KeyedArchiveCoderTests {
    struct Profile: Codable, Equatable {
        var name: String
        var tags: [String]
        var joined: Date
        var avatar: Data
        var homepage: URL?
        var score: Double
    }

    static let profile = Profile(name: "Ada", tags: ["math", "engines"], joined: Date(timeIntervalSinceReferenceDate: 1_000_000),
                                 avatar: Data([1, 2, 3]), homepage: URL(string: "https://example.com/ada"), score: 9.5)

    @Test func anEncodedValueDecodesBackEqual() throws {
        let blob = try KeyedArchiveEncoder().encode(Self.profile)
        let decoded = try KeyedArchiveDecoder().decode(Profile.self, from: blob)
        #expect(decoded.name == Self.profile.name && decoded.tags == Self.profile.tags && decoded.joined == Self.profile.joined)
        #expect(decoded.avatar == Self.profile.avatar && decoded.score == Self.profile.score)
    }

    @Test func foundationUnarchivesWhatTheEncoderWrites() throws {
        struct Simple: Codable {
            var name: String
            var values: [Int]
        }
        let blob = try KeyedArchiveEncoder().encode(Simple(name: "n", values: [1, 2]))
        let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self], from: blob)
        let d = object as? [String: Any]
        #expect(d?["name"] as? String == "n")
        #expect((d?["values"] as? [NSNumber])?.map(\.intValue) == [1, 2])
    }

    @Test func theEncoderWritesTheClassesYouName() throws {
        struct Tint: Codable { var red, green, blue, alpha: Double }
        let blob = try KeyedArchiveEncoder(classNames: [".": "UIColor"]).encode(Tint(red: 1, green: 0, blue: 0, alpha: 1))
        let archive = try KeyedArchive(data: blob)
        #expect(archive.rootObject?.className == "UIColor")
        guard case .color(let c)? = archive.rootObject?.content else {
            Issue.record("not a color")
            return
        }
        #expect(c.red == 1 && c.green == 0 && c.alpha == 1)
    }

    @Test func theDecoderRefusesWhatTheAllowListRefuses() throws {
        let blob = try Data(contentsOf: Fixture.directory.appendingPathComponent("uicolor-tint.bplist"))
        struct Tint: Codable { var red, green, blue, alpha: Double }
        #expect(throws: PayloadError.self) {
            _ = try KeyedArchiveDecoder(allowList: .transformerDefault).decode(Tint.self, from: blob)
        }
        let tint = try KeyedArchiveDecoder(allowList: .transformerDefault(adding: ["UIColor"])).decode(Tint.self, from: blob)
        #expect(tint.alpha == 1)
    }

    @Test func payloadPathsSelectNestedValues() throws {
        let value: PropertyListValue = ["a": ["b": [10, 20]]]
        #expect(PayloadPath(".a.b[1]").value(in: value) == 20)
        #expect(PayloadPath(".").value(in: value) == value)
        #expect(PayloadPath(".a.c").value(in: value) == nil)
    }

    @Test func geometryTakesTheCodableShapesOfCoreGraphicsAndFoundation() throws {
        var b = KeyedArchiveBuilder()
        let rect = b.object("NSValue", fields: [
            ArchivedField(key: "NS.special", value: .inline(.integer(PropertyListInteger(3)))),
            ArchivedField(key: "NS.rectval", value: b.string("{{1, 2}, {3, 4}}")),
        ])
        let range = b.object("NSValue", fields: [
            ArchivedField(key: "NS.special", value: .inline(.integer(PropertyListInteger(4)))),
            ArchivedField(key: "NS.rangeval.location", value: .inline(.integer(PropertyListInteger(5)))),
            ArchivedField(key: "NS.rangeval.length", value: .inline(.integer(PropertyListInteger(6)))),
        ])
        let root = b.array([rect, range])
        let payload = try PayloadMapper().payload(of: b.archive(root: root))
        let json = try JSONPropertyListWriter().write(payload)
        let decoded = try JSONSerialization.jsonObject(with: json) as? [Any]
        #expect((decoded?[0] as? [[Double]]) == [[1, 2], [3, 4]])
        #expect((decoded?[1] as? [Int]) == [5, 6])
        let nsRange = try JSONDecoder().decode(NSRange.self, from: try JSONPropertyListWriter().write(payload.arrayValue?[1] ?? .null))
        #expect(nsRange.location == 5 && nsRange.length == 6)
    }
}
