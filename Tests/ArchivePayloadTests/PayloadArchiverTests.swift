import Foundation
import Testing
@testable import ArchivePayload
import KeyedArchive
import PropertyList

/// Payloads become archives Foundation reads back as they were: nulls as NSNull objects,
/// absent fields absent, and bad requests refused with the path.
@Suite struct PayloadArchiverTests {
    func json(_ text: String) throws -> PropertyListValue {
        try JSONPropertyListReader().read(Data(text.utf8))
    }

    /// Foundation's reading of `archive`, after our checker said it is safe to hand over.
    func foundationObject(_ archive: KeyedArchive) throws -> Any? {
        let data = try KeyedArchiveWriter().write(archive)
        if let risk = FoundationClient.crashRisk(try KeyedArchive(data: data), allowed: .transformerDefault) {
            Issue.record("not for Foundation: \(risk)")
            return nil
        }
        return try NSKeyedUnarchiver.unarchivedObject(ofClasses: FoundationClient.transformerDefaultClasses, from: data)
    }

    @Test func aNullInAnArrayComesBackFromFoundationAsNSNullInItsPlace() throws {
        // The issue's first example: a $null reference here made Foundation return [1, "x"].
        let array = try foundationObject(try PayloadArchiver().archive(try json(#"[1,null,"x"]"#))) as? NSArray
        #expect(array?.count == 3)
        #expect((array?[0] as? NSNumber)?.intValue == 1)
        #expect(array?[1] is NSNull)
        #expect(array?[2] as? String == "x")
    }

    @Test func aNullDictionaryValueComesBackFromFoundationAsNSNull() throws {
        // The issue's second example: a $null value here corrupted Foundation's heap.
        let archive = try PayloadArchiver().archive(try json(#"{"nested":{"k":null}}"#))
        let root = try foundationObject(archive) as? NSDictionary
        #expect((root?["nested"] as? NSDictionary)?["k"] is NSNull)
    }

    @Test func aNullRootIsAnNSNullObject() throws {
        let archive = try PayloadArchiver().archive(.null)
        #expect(archive.rootObject?.className == "NSNull")
        #expect(try foundationObject(archive) is NSNull)
    }

    @Test func everyNullIsOneSharedNSNullObjectAsFoundationArchivesItsSingleton() throws {
        let archive = try PayloadArchiver().archive(try json(#"[null,{"a":null},[null]]"#))
        let nulls = archive.decodedObjects.filter { $0.className == "NSNull" }
        #expect(nulls.count == 1)
        guard case .array(let elements)? = archive.rootObject?.content else {
            Issue.record("not an array")
            return
        }
        #expect(elements.first == .object(uid: nulls[0].uid))
    }

    @Test func aNullFieldOfAnObjectIsNSNullAndAnAbsentFieldStaysAbsent() throws {
        let payload = try json(#"{"eyeColor":null,"carsNumber":2}"#)
        let archive = try PayloadArchiver(classes: [".": "MyApp.UserDetails"]).archive(payload)
        let root = try #require(archive.rootObject)
        #expect(root.className == "MyApp.UserDetails")
        #expect(archive.object(root[field: "eyeColor"] ?? .null)?.className == "NSNull")
        #expect(root[field: "carsNumber"] == .inline(.integer(PropertyListInteger(2))))
        #expect(root[field: "hairColor"] == nil)
    }

    @Test func aNullDictionaryKeyIsNSNullToo() throws {
        let d = PropertyListDictionary([(.null, .string("v"))])
        let archive = try PayloadArchiver().archive(.dictionary(d))
        guard case .dictionary(let keys, _)? = archive.rootObject?.content else {
            Issue.record("not a dictionary")
            return
        }
        #expect(archive.object(keys[0])?.className == "NSNull")
    }

    @Test func theStringDollarNullIsAnNSStringObjectBecauseInlineItWouldReadAsNil() throws {
        // Foundation takes any "$null" string in $objects for nil (it is how $objects[0] spells it).
        let archive = try PayloadArchiver().archive(.array([.string("$null"), .string("x")]))
        let array = try foundationObject(archive) as? NSArray
        #expect(array?.count == 2)
        #expect(array?[0] as? String == "$null")
        guard case .array(let elements)? = archive.rootObject?.content else {
            Issue.record("not an array")
            return
        }
        #expect(archive.object(elements[0])?.archivedClass?.name == "NSString")
        #expect(archive.object(elements[1])?.archivedClass == nil)
    }

    @Test func theDollarNullStringStandsForNullOnlyInPropertyListPayloads() throws {
        let payload: PropertyListValue = .array([.string("$null"), .string("x")])
        let fromPlist = try PayloadArchiver(nullMarker: PayloadArchiver.nullMarker(for: .binary)).archive(payload)
        let fromJSON = try PayloadArchiver(nullMarker: PayloadArchiver.nullMarker(for: .json)).archive(payload)
        let plistArray = try foundationObject(fromPlist) as? NSArray
        let jsonArray = try foundationObject(fromJSON) as? NSArray
        #expect(plistArray?[0] is NSNull)
        #expect(jsonArray?[0] as? String == "$null")
    }

    @Test func theEncoderWritesNilInCollectionsAsNSNullAndLeavesNilPropertiesOut() throws {
        struct Row: Codable {
            var values: [Int?]
            var table: [String: String?]
            var note: String?
        }
        let blob = try KeyedArchiveEncoder().encode(Row(values: [1, nil, 3], table: ["k": nil], note: nil))
        let archive = try KeyedArchive(data: blob)
        if let risk = FoundationClient.crashRisk(archive, allowed: .transformerDefault) {
            Issue.record("not for Foundation: \(risk)")
            return
        }
        let root = try NSKeyedUnarchiver.unarchivedObject(ofClasses: FoundationClient.transformerDefaultClasses, from: blob) as? NSDictionary
        let values = root?["values"] as? NSArray
        #expect(values?.count == 3)
        #expect(values?[1] is NSNull)
        #expect((root?["table"] as? NSDictionary)?["k"] is NSNull)
        #expect(root?["note"] == nil)
        #expect(root?.count == 2)
    }

    @Test func aPayloadDeeperThanTheLimitIsRefusedWithItsPath() throws {
        var payload: PropertyListValue = .string("bottom")
        for _ in 0..<20 { payload = .dictionary(PropertyListDictionary([(.string("level"), payload)])) }
        #expect(throws: Never.self) { _ = try PayloadArchiver(maximumDepth: 20).archive(payload) }
        do {
            _ = try PayloadArchiver(maximumDepth: 10).archive(payload)
            Issue.record("a payload 20 deep was archived with a limit of 10")
        } catch {
            #expect(error.code == .tooDeep)
            #expect(error.message == "the payload nests deeper than 10 at .level.level.level.level.level.level.level.level.level.level")
        }
    }

    @Test func aDeepPathIsShownByItsEndsInTheError() throws {
        var payload: PropertyListValue = .integer(PropertyListInteger(1))
        for _ in 0..<100 { payload = .array([payload]) }
        payload = .dictionary(PropertyListDictionary([(.string("top"), payload)]))
        do {
            _ = try PayloadArchiver(maximumDepth: 50).archive(payload)
            Issue.record("archived past the limit")
        } catch {
            #expect(error.message == "the payload nests deeper than 50 at .top…(39 more)…[0][0][0][0][0][0][0][0][0][0]")
        }
    }

    @Test(arguments: ["", "3Color", "My Color", "OldApp..Color", "OldApp.", "Color$", "_TtC6OldApp", "a\u{7}b"])
    func aClassNameThatIsNotOneIsRefusedWithThePath(name: String) throws {
        #expect(ArchivedClassName.problem(name) != nil)
        let payload = try json(#"{"items":[{}]}"#)
        do {
            _ = try PayloadArchiver(classes: [".items[]": name]).archive(payload)
            Issue.record("archived under the class name \(name.debugDescription)")
        } catch {
            #expect(error.code == .invalidMapping)
            #expect(error.message.hasPrefix("--class .items[]=\(name): "), "\(error.message)")
        }
    }

    @Test(arguments: ["UIColor", "_Private", "NewApp.Color", "NewApp.Outer.Inner", "_TtC6NewApp5Color", "Écran.Couleur"])
    func classNamesInEveryFormSwiftAndObjectiveCWriteAreAccepted(name: String) {
        #expect(ArchivedClassName.problem(name) == nil)
    }

    @Test func aClassPathThatMatchesNothingIsRefusedWithThePath() throws {
        let payload = try json(#"{"color":{}}"#)
        do {
            _ = try PayloadArchiver(classes: [".tint": "UIColor"]).archive(payload)
            Issue.record("archived with a path that matches nothing")
        } catch {
            #expect(error.code == .invalidMapping)
            #expect(error.message == "--class .tint=UIColor matches no value in the payload")
        }
    }
}
