import Foundation
import Testing
@testable import KeyedArchive
@testable import archivist_fixtures
import PropertyList

/// The hand-built archives in Fixtures/archives, made by `swift run archivist-fixtures`.
@Suite struct ArchiveFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/archives")

    static func archive(_ name: String) throws -> KeyedArchive {
        try KeyedArchive(data: try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    @Test func theCheckedInFixturesAreWhatTheGeneratorMakes() throws {
        for fixture in try ArchiveFixtures.all() {
            let stored = try Data(contentsOf: Self.directory.appendingPathComponent(fixture.name))
            if fixture.name.hasPrefix("legacy-") || fixture.name.contains("codable") {
                // Made by Foundation, whose dictionary order may vary between runs: compare values.
                #expect(try PropertyListReader().read(stored).value == PropertyListReader().read(fixture.data).value, "\(fixture.name)")
            } else {
                #expect(stored == fixture.data, "\(fixture.name) differs from the generator's output")
            }
        }
    }

    @Test func theUIColorTintDecodesToItsComponents() throws {
        let a = try Self.archive("uicolor-tint.bplist")
        guard case .color(let c)? = a.rootObject?.content else {
            Issue.record("not a color: \(String(describing: a.rootObject?.content))")
            return
        }
        #expect(abs(c.red - 0.176) < 1e-6 && abs(c.green - 0.165) < 1e-6 && abs(c.blue - 0.51) < 1e-6 && c.alpha == 1)
        #expect(c.space == .sRGB)
        #expect(a.rootObject?.archivedClass?.hints == ["NSColor"])
    }

    @Test func theMangledSwiftClassShowsItsRealName() throws {
        let a = try Self.archive("serializable-color-mangled.bplist")
        #expect(a.rootObject?.className == "_TtC8Eventail17SerializableColor")
        #expect(a.rootObject?.readableClassName == "Eventail.SerializableColor")
        #expect(a.rootObject?[field: "colorSpace"] == .inline(.integer(PropertyListInteger(1))))
        #expect(a.rootObject?.content == .object)
    }

    @Test func theUserDetailsObjectHasOnlyTheFieldsThatWereSet() throws {
        let a = try Self.archive("user-details-nscoding.bplist")
        let keys = a.rootObject?.fields.map(\.key)
        #expect(keys == ["eyeColor", "carsNumber"])
        if let eye = a.rootObject?[field: "eyeColor"] { #expect(a.object(eye)?.content == .string("green")) }
    }

    @Test func theConfigurationBoxHoldsJSONData() throws {
        let a = try Self.archive("configuration-box-json.bplist")
        guard let unbox = a.rootObject?[field: "unbox"], case .data(let json)? = a.object(unbox)?.content else {
            Issue.record("no data under unbox")
            return
        }
        let value = try JSONPropertyListReader().read(json)
        #expect(value["theme"] == "dark")
    }

    @Test func theRelativeURLKeepsItsBase() throws {
        let a = try Self.archive("relative-url.bplist")
        guard case .url(let base, let relative)? = a.rootObject?.content else {
            Issue.record("not a URL")
            return
        }
        #expect(a.object(relative)?.content == .string("Documents/photo.jpg"))
        #expect(a.object(base)?.className == "NSURL")
    }

    @Test func theCycleIsAReferenceBackToTheRoot() throws {
        let a = try Self.archive("cycle-self-reference.bplist")
        #expect(a.rootObject?[field: "next"] == a.root)
    }

    @Test func theLegacyStringArrayIsAnArrayOfStrings() throws {
        let a = try Self.archive("legacy-string-array.bplist")
        guard case .array(let e)? = a.rootObject?.content else {
            Issue.record("not an array")
            return
        }
        #expect(e.compactMap { a.object($0)?.content } == [.string("swift"), .string("core data"), .string("ünïcode")])
    }

    @Test func thePNGAndThePropertyListEncoderPayloadAreNotArchives() throws {
        #expect(throws: KeyedArchiveError.self) { try Self.archive("photo.png") }
        #expect(throws: KeyedArchiveError.self) { try Self.archive("user-details-codable.bplist") }
    }
}
