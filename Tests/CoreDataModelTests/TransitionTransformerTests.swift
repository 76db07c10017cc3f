import ArchivePayload
import CoreDataModel
import CoreDataStore
import Foundation
import StoreFixtures
import Testing

/// The one rule for the classes a transformer lists (`TransformerFix.addedClasses`), and the
/// transformer `codegen` writes for each kind of attribute the model describes.
@Suite struct TransitionTransformerTests {
    @Test(arguments: [
        // custom class, given, needed → added to super.allowedTopLevelClasses
        (nil, [], [], []),
        (nil, [], ["UIColor"], ["UIColor"]),
        ("UIColor", [], ["UIColor"], ["UIColor"]),
        ("NSArray", ["NSString", "NSDictionary"], ["NSMutableDictionary"], []),
        ("Palette.SerializableColor", [], ["_TtC7Palette17SerializableColor"], ["Palette.SerializableColor"]),
        (nil, ["UIColor", "MyApp.Theme"], ["CKRecord"], ["UIColor", "MyApp.Theme", "CKRecord"]),
    ] as [(String?, [String], [String], [String])])
    func theAddedClassesAreThoseTheSecureDefaultsRefuseOncePerSwiftType(custom: String?, given: [String], needed: [String], added: [String]) {
        #expect(TransformerFix.addedClasses(customClass: custom, given: given, needed: needed) == added)
    }

    static func attribute(_ type: AttributeType = .transformable, transformer: String?, custom: String? = nil) -> AttributeDescription {
        AttributeDescription(name: "darkColor", attributeType: type, valueTransformerName: transformer, valueClassName: custom)
    }

    @Test func anAppTransformerIsReplacedUnderItsOwnNameWithItsGivenClassesKept() {
        let plan = TransitionTransformer(attribute: Self.attribute(transformer: "UIColorValueTransformer", custom: "UIColor"),
                                         attributeName: "Group.darkColor", className: "GroupDarkColorTransformer", needed: ["UIColor"],
                                         given: TransformerAllowLists(["UIColorValueTransformer": ["UIColor", "MyApp.Theme"]]))
        guard case .subclass(let className, let registeredName, let added, let note) = plan else {
            Issue.record("\(plan)")
            return
        }
        #expect(className == "GroupDarkColorTransformer")
        #expect(registeredName == "UIColorValueTransformer")
        #expect(added == ["UIColor", "MyApp.Theme"])
        #expect(note.contains("so the model needs no change"))
        #expect(plan.note == nil)
    }

    @Test(arguments: [nil, "NSKeyedUnarchiveFromData", "NSSecureUnarchiveFromData"])
    func theSecureOrInsecureTransformersGetANewNameOnlyWhenTheDefaultsRefuseSomething(transformer: String?) {
        let needed = TransitionTransformer(attribute: Self.attribute(transformer: transformer), attributeName: "Group.darkColor",
                                           className: "GroupDarkColorTransformer", needed: ["UIColor"])
        #expect(needed == .subclass(className: "GroupDarkColorTransformer", registeredName: "GroupDarkColorTransformer", addedClasses: ["UIColor"],
                                    note: "Set GroupDarkColorTransformer as Group.darkColor's Transformer in the model (in place of \(transformer ?? "none: Core Data's insecure NSKeyedUnarchiveFromData")), and register it."))
        let none = TransitionTransformer(attribute: Self.attribute(transformer: transformer), attributeName: "Group.darkColor",
                                         className: "GroupDarkColorTransformer", needed: [])
        #expect(none == .secureDefaultsSuffice(alreadyNamed: transformer == "NSSecureUnarchiveFromData"))
    }

    @Test func aBinaryDataAttributeGetsNoTransformerAndWithoutAModelTheNameIsNew() {
        let binary = TransitionTransformer(attribute: Self.attribute(.binaryData, transformer: nil), attributeName: "Note.record",
                                           className: "NoteRecordTransformer", needed: ["CKRecord", "NSString"])
        #expect(binary == .notTransformable(.binaryData, neededClasses: ["CKRecord"]))
        #expect(binary.note == "Binary Data in the model, not Transformable: Core Data runs no value transformer on it, the app unarchives the values itself, so none is written (the archives hold CKRecord beyond the secure defaults).")
        let noModel = TransitionTransformer(attribute: nil, attributeName: nil, className: "TintTransformer", needed: ["UIColor"])
        #expect(noModel == .subclass(className: "TintTransformer", registeredName: "TintTransformer", addedClasses: ["UIColor"],
                                     note: "Set TintTransformer as the attribute's Transformer in the model, and register it."))
    }

    @Test func theValueReaderLocatesAnAttributeByTheStoresModelAndReadsEveryRowReadOnly() throws {
        let path = try ModelFixtureTests.temporaryStore()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var archives = 0, nulls = 0
        let location = try AttributeValueReader().read(path: path, attribute: "group.DARKCOLOR") { _, value in
            if value.kind == .null { nulls += 1 } else if value.archive != nil { archives += 1 }
        }
        #expect(location.attributeName == "Group.darkColor")
        #expect(location.attribute?.valueTransformerName == "UIColorValueTransformer")
        #expect((archives, nulls) == (36, 4))
        let columns = try AttributeValueReader(model: .none).read(path: path, attribute: "group.DARKCOLOR") { _, _ in }
        #expect(columns.attributeName == nil && columns.attribute == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
