import Foundation
import Testing
@testable import ArchivePayload
import KeyedArchive
import PropertyList

/// The blobs real Core Data stores hold (Fixtures/archives), checked and migrated to Codable
/// payloads that JSONDecoder and PropertyListDecoder decode into the structs apps replace them with.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/archives")

    static func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }
    static func archive(_ name: String) throws -> KeyedArchive { try KeyedArchive(data: try data(name)) }
}

/// Decodes a payload both ways a migrated app would: as JSON and as a binary property list.
func decodeBothWays<T: Decodable>(_ type: T.Type, from archiveData: Data, options: PayloadOptions = PayloadOptions()) throws -> (json: T, plist: T) {
    let archive = try KeyedArchive(data: archiveData)
    let json = try JSONPropertyListWriter().write(try PayloadMapper(options: options).payload(of: archive))
    var plistOptions = options
    plistOptions.target = .propertyList
    let plist = BinaryPropertyListWriter().write(try PayloadMapper(options: plistOptions).payload(of: archive))
    return (try JSONDecoder().decode(T.self, from: json), try PropertyListDecoder().decode(T.self, from: plist))
}

struct Color: Codable, Equatable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double
}

@Suite struct UserCaseTests {
    @Test func aUIColorTintIsRejectedByTheDefaultListAndAcceptedWithAllowUIColor() throws {
        let archive = try Fixture.archive("uicolor-tint.bplist")
        let byDefault = AllowListChecker().check(archive)
        #expect(!byDefault.isAccepted)
        #expect(byDefault.violations.map(\.className) == ["UIColor"])
        #expect(byDefault.violations.first?.path == "root")
        #expect(byDefault.suggestedAdditions == ["UIColor"])
        #expect(byDefault.swiftSnippet.contains("super.allowedTopLevelClasses + [UIColor.self]"))
        let allowed = AllowListChecker(allowList: .transformerDefault(adding: ["UIColor"])).check(archive)
        #expect(allowed.isAccepted)
    }

    @Test func aUIColorTintMigratesToItsComponents() throws {
        let (json, plist) = try decodeBothWays(Color.self, from: try Fixture.data("uicolor-tint.bplist"))
        for color in [json, plist] {
            #expect(abs(color.red - 0.176) < 1e-6 && abs(color.green - 0.165) < 1e-6 && abs(color.blue - 0.51) < 1e-6)
            #expect(color.alpha == 1)
        }
    }

    struct SerializableColor: Codable, Equatable {
        var colorSpace: Int
        var red: Float
        var green: Float
        var blue: Float
        var alpha: Float
    }

    @Test func aMangledSwiftColorClassIsCheckedByItsRealNameAndMigrates() throws {
        let archive = try Fixture.archive("serializable-color-mangled.bplist")
        let report = AllowListChecker().check(archive)
        #expect(report.violations.first?.readableClassName == "Eventail.SerializableColor")
        #expect(report.suggestedAdditions == ["Eventail.SerializableColor"])
        #expect(report.swiftSnippet.contains("SerializableColor.self"))
        // The transformer's list: super.allowedTopLevelClasses + [SerializableColor.self], in any spelling.
        for spelling in ["Eventail.SerializableColor", "_TtC8Eventail17SerializableColor"] {
            #expect(AllowListChecker(allowList: .transformerDefault(adding: [spelling])).check(archive).isAccepted)
        }
        let (json, plist) = try decodeBothWays(SerializableColor.self, from: try Fixture.data("serializable-color-mangled.bplist"))
        let expected = SerializableColor(colorSpace: 1, red: 0.9, green: 0.2, blue: 0.35, alpha: 1)
        #expect(json == expected)
        #expect(plist == expected)
    }

    struct Configuration: Codable, Equatable {
        var theme: String
        var fontSize: Int
        var showsBadges: Bool
        var accent: String
    }

    @Test func aCodableStructBoxedAsJSONReadsAsPlainDataWhenExpanded() throws {
        let archive = try Fixture.archive("configuration-box-json.bplist")
        // The transformer's list for the box is [ConfigurationBox.self, NSData.self].
        let only = AllowList(classes: ["MyApp.ConfigurationBox", "NSData"])
        #expect(AllowListChecker(allowList: only).check(archive).isAccepted)
        let payload = try PayloadMapper(options: PayloadOptions(expandsNestedPayloads: true)).payload(of: archive)
        guard let inner = payload["unbox"] else {
            Issue.record("no unbox in \(payload)")
            return
        }
        let config = try JSONDecoder().decode(Configuration.self, from: try JSONPropertyListWriter().write(inner))
        #expect(config == Configuration(theme: "dark", fontSize: 14, showsBadges: true, accent: "#FF6600"))
        let viaPlist = try PropertyListDecoder().decode(Configuration.self, from: BinaryPropertyListWriter().write(inner))
        #expect(viaPlist == config)
    }

    @Test func aLegacyStringArrayPassesTheDefaultListAndMigratesToAJSONArray() throws {
        let archive = try Fixture.archive("legacy-string-array.bplist")
        let report = AllowListChecker().check(archive)
        #expect(report.isAccepted)
        let (json, plist) = try decodeBothWays([String].self, from: try Fixture.data("legacy-string-array.bplist"))
        #expect(json == ["swift", "core data", "ünïcode"])
        #expect(plist == json)
    }

    struct UserDetails: Codable, Equatable {
        var eyeColor: String?
        var hairColor: String?
        var carsNumber: Int?
    }

    @Test func aCustomNSCodingClassWithOptionalFieldsMigratesToItsStruct() throws {
        let (json, plist) = try decodeBothWays(UserDetails.self, from: try Fixture.data("user-details-nscoding.bplist"))
        let expected = UserDetails(eyeColor: "green", hairColor: nil, carsNumber: 2)
        #expect(json == expected)
        #expect(plist == expected)
        #expect(try KeyedArchiveDecoder().decode(UserDetails.self, from: try Fixture.data("user-details-nscoding.bplist")) == expected)
    }

    @Test func aURLRelativeToABaseMigratesToItsAbsoluteString() throws {
        let (json, plist) = try decodeBothWays(URL.self, from: try Fixture.data("relative-url.bplist"))
        let expected = "file:///private/var/mobile/Containers/Shared/AppGroup/3F2504E0-4F89-11D3-9A0C-0305E82C3301/Documents/photo.jpg"
        #expect(json.absoluteString == expected)
        #expect(plist.absoluteString == expected)
        #expect(AllowListChecker().check(try Fixture.archive("relative-url.bplist")).isAccepted)
    }

    @Test func aCycleIsRefusedNamingThePathAroundIt() throws {
        let archive = try Fixture.archive("cycle-self-reference.bplist")
        #expect {
            _ = try PayloadMapper().payload(of: archive)
        } throws: { error in
            guard let e = error as? PayloadError else { return false }
            return e.code == .cycle && e.message.contains("root.next") && e.message.contains("refers back to root")
        }
    }

    @Test func aBlobClaimingToBeAnArraySubclassIsRejectedUnlessTheArchiveHierarchyIsTrusted() throws {
        var b = KeyedArchiveBuilder()
        let payload = b.string("pwned")
        let evil = b.object("Evil", chain: ["Evil", "NSArray", "NSObject"], fields: [ArchivedField(key: "NS.objects", value: .array([payload]))])
        let archive = b.archive(root: evil)
        let strict = AllowListChecker().check(archive)
        #expect(!strict.isAccepted)
        #expect(strict.violations.first?.reason.contains("does not confirm") == true)
        var trusting = AllowList.transformerDefault
        trusting.trustsArchiveHierarchy = true
        #expect(AllowListChecker(allowList: trusting).check(archive).isAccepted)
    }

    @Test func listingNSObjectIsReportedAsABypass() throws {
        let archive = try Fixture.archive("uicolor-tint.bplist")
        let report = AllowListChecker(allowList: AllowList(classes: ["NSObject"])).check(archive)
        #expect(report.isAccepted)
        #expect(report.warnings.contains { $0.kind == .bypass })
    }

    @Test func inlineStringsPassWithApplesWarningWhenNSStringIsNotListed() throws {
        let archive = try Fixture.archive("user-details-nscoding.bplist")
        let report = AllowListChecker(allowList: AllowList(classes: ["MyApp.UserDetails"])).check(archive)
        #expect(report.isAccepted)
        #expect(report.warnings.contains { $0.kind == .implicitPlistType && $0.message.contains("allowed unarchiving safe plist type 'NSString'") })
    }

    @Test func subclassesOfAllowedClassesPassByTheRealHierarchy() throws {
        var b = KeyedArchiveBuilder()
        let mutable = b.array([b.string("x")], mutable: true)
        let archive = b.archive(root: mutable)
        #expect(AllowListChecker().check(archive).isAccepted)
        // ...but not when only the subclass is listed and the object is the superclass.
        var c = KeyedArchiveBuilder()
        let plain = c.array([c.string("x")])
        #expect(!AllowListChecker(allowList: AllowList(classes: ["NSMutableArray", "NSString"])).check(c.archive(root: plain)).isAccepted)
    }

    @Test func theMinimalAllowSetCoversSubclassesWithOneClass() throws {
        var b = KeyedArchiveBuilder()
        let one = b.object("UIDeviceRGBColor", fields: [])
        let two = b.object("UICachedDeviceRGBColor", fields: [])
        let root = b.array([one, two])
        let archive = b.archive(root: root)
        let report = AllowListChecker().check(archive)
        #expect(report.suggestedAdditions == ["UIDeviceRGBColor"])
    }
}
