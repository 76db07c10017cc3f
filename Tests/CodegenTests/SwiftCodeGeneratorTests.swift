@testable import Codegen
import Foundation
import PropertyList
import Testing

/// What the generator writes for each shape, read as text (the compile tests in
/// ArchivistCLITests build and run it).
struct SwiftCodeGeneratorTests {
    func source(_ values: [PropertyListValue], name: String = "Item", transformer: [String]? = nil,
                encoding: PayloadEncoding = .json) throws -> String {
        var generator = SwiftCodeGenerator(typeName: name, encoding: encoding)
        if let transformer { generator.transformer = .init(className: name + "Transformer", classes: transformer) }
        return generator.source(for: try PayloadShapeInferrer.shape(of: values, encoding: encoding))
    }

    @Test(arguments: [
        ("name", "name"), ("first_name", "first_name"), ("Home Address", "homeAddress"), ("UIRed-Double", "uiRedDouble"),
        ("Domain", "domain"), ("URL", "url"), ("userID", "userID"), ("default", "defaultValue"), ("$class", "classValue"),
        ("1st", "_1st"), ("", "emptyKey"), ("NS.objects", "nsObjects"), ("cloud-photo-auto-enable", "cloudPhotoAutoEnable"),
        ("été", "été"), ("self", "selfValue"),
    ])
    func keysBecomePropertyNames(key: String, property: String) {
        #expect(SwiftName.property(for: key) == property)
    }

    @Test(arguments: [
        ("owner", "Owner"), ("tint_color", "TintColor"), ("1st", "Field1st"), ("type", "TypeValue"), ("UIColor", "UIColor"),
    ])
    func keysBecomeTypeNames(key: String, type: String) {
        #expect(SwiftName.typeName(for: key) == type)
    }

    @Test(arguments: [("reactions", "reaction"), ("entries", "entry"), ("boxes", "box"), ("status", nil), ("data", nil), ("address", nil)])
    func arrayElementsAreNamedInTheSingular(plural: String, singular: String?) {
        #expect(SwiftName.singular(plural) == singular)
    }

    @Test func keysThatAreIdentifiersNeedNoCodingKeys() throws {
        let text = try source([["name": "a", "count": 1]])
        #expect(text.contains("struct Item: Codable, Hashable, Sendable {\n    var name: String\n    var count: Int\n}\n"))
        #expect(!text.contains("CodingKeys"))
    }

    @Test func otherKeysAreMappedByCodingKeysWithEveryProperty() throws {
        let text = try source([["Home Address": "x", "default": true, "id": 1]])
        #expect(text.contains("""
                enum CodingKeys: String, CodingKey {
                    case homeAddress = "Home Address"
                    case defaultValue = "default"
                    case id
                }
            """))
    }

    @Test func keysThatCollideAfterRenamingAreNumbered() throws {
        let text = try source([["home address": 1, "homeAddress": 2]])
        #expect(text.contains("var homeAddress: Int\n    var homeAddress2: Int\n"))
        #expect(text.contains("case homeAddress = \"home address\"\n        case homeAddress2 = \"homeAddress\"\n"))
    }

    @Test func aHostileKeyStaysInsideItsStringLiteral() throws {
        let key = "a\"b\\c\nd\u{2028}e"
        let text = try source([.dictionary(PropertyListDictionary([(.string(key), "v")]))])
        #expect(text.contains(#"case aBCDE = "a\"b\\c\nd\u{2028}e""#))
        #expect(text.components(separatedBy: "\n").allSatisfy { !$0.hasPrefix("d") && !$0.hasPrefix("e") })
    }

    @Test func nestedTypesAreNestedInTheTopTypeAndNamedAfterTheirKeys() throws {
        let text = try source([["owner": ["name": "a"], "reactions": [["kind": "like"]], "data": ["size": 1]]])
        #expect(text.contains("    var owner: Owner\n    var reactions: [Reaction]\n    var data: ItemData\n"))
        #expect(text.contains("\n    struct Owner: Codable, Hashable, Sendable {\n        var name: String\n    }\n"))
        #expect(text.contains("\n    struct Reaction: Codable, Hashable, Sendable {\n"))
        #expect(text.contains("\n    struct ItemData: Codable, Hashable, Sendable {\n"), "Data would hide Foundation's Data")
    }

    @Test func twoFieldsOfOneNameGetDistinctTypes() throws {
        let text = try source([["a": ["owner": ["x": 1]], "b": ["owner": ["y": 2]]]])
        #expect(text.contains("var owner: Owner\n"))
        #expect(text.contains("var owner: BOwner\n"))
    }

    @Test func anArrayOfObjectsIsATypealiasOfNameElement() throws {
        let text = try source([[["a": 1]]], name: "Tags")
        #expect(text.contains("typealias Tags = [TagsElement]\n\nstruct TagsElement: Codable, Hashable, Sendable {\n    var a: Int\n}\n"))
    }

    @Test func aMapIsATypealiasOfAStringKeyedDictionary() throws {
        let text = try source([["com.apple.news": ["opened": 1]]], name: "Apps")
        #expect(text.contains("typealias Apps = [String: AppsValue]\n"))
        let scalars = try source([["8:live:.cid.832804f1252ed9b2": "Admin"]], name: "Members")
        #expect(scalars.contains("typealias Members = [String: String]\n"))
    }

    @Test func scalarsAreATypealias() throws {
        #expect(try source(["a"], name: "Name").contains("typealias Name = String\n"))
        #expect(try source(["https://example.com"], name: "Link").contains("typealias Link = URL\n"))
    }

    @Test func valuesOfSeveralKindsAreAnEnumThatTriesEachKind() throws {
        let text = try source(["text", 5, ["k": "v"]], name: "Setting")
        #expect(text.contains("enum Setting: Codable, Hashable, Sendable {\n    case integer(Int)\n    case string(String)\n    case object(SettingObject)\n"))
        #expect(text.contains("if let value = try? container.decode(Int.self) {\n            self = .integer(value)\n        } else if"))
        #expect(text.contains("case .object(let value): try container.encode(value)"))
        #expect(text.contains("    struct SettingObject: Codable, Hashable, Sendable {\n"))
    }

    @Test func colorsShareOneNestedColorStruct() throws {
        let text = try source([["fill": ["red": 1, "green": 0, "blue": 0, "alpha": 1], "stroke": ["red": 0, "green": 0, "blue": 1, "alpha": 0.5]]])
        #expect(text.contains("var fill: Color\n    var stroke: Color\n"))
        #expect(text.components(separatedBy: "struct Color:").count == 2)
    }

    @Test func aColorSpaceIsAnOptionalString() throws {
        let text = try source([["red": 1, "green": 0, "blue": 0, "alpha": 1, "colorSpace": "displayP3"], ["red": 1, "green": 0, "blue": 0, "alpha": 1]])
        #expect(text.contains("    var colorSpace: String? // absent for sRGB; displayP3, genericGray…\n"))
    }

    @Test func theDecodingExampleSetsTheStrategiesTheValuesNeed() throws {
        let dated = try source([["when": .date(Date())]], encoding: PayloadEncoding(dateStrategy: .secondsSince1970))
        #expect(dated.contains("///     let decoder = JSONDecoder()\n///     decoder.dateDecodingStrategy = .secondsSince1970\n///     let value = try decoder.decode(Item.self, from: data)\n"))
        let bytes = try source([["blob": .data(Data([1]))]], encoding: PayloadEncoding(dataStrategy: .deferredToData))
        #expect(bytes.contains("decoder.dataDecodingStrategy = .deferredToData"))
        let plain = try source([["when": .date(Date())]])
        #expect(plain.contains("///     let value = try JSONDecoder().decode(Item.self, from: data)\n"))
        let plist = try source([["when": .date(Date())]], encoding: .propertyList)
        #expect(plist.contains("///     let value = try PropertyListDecoder().decode(Item.self, from: data)\n"))
    }

    @Test func aRootThatIsSometimesNullIsDecodedAsAnOptional() throws {
        #expect(try source([["a": 1], .null]).contains("decode(Item?.self, from: data)"))
    }

    @Test func theTransformerAddsTheClassesGivenToTheSecureDefaultsByTheirSwiftNames() throws {
        let text = try source([["a": 1]], transformer: ["NSDictionary", "Eventail.SerializableColor", "UIColor", "_TtGC5MyApp3BoxSS_"])
        #expect(text.contains("""
            #if canImport(CoreData)
            import CoreData
            #if canImport(UIKit)
            import UIKit
            #elseif canImport(AppKit)
            import AppKit
            #endif
            """))
        #expect(text.contains("@objc(ItemTransformer)\nfinal class ItemTransformer: NSSecureUnarchiveFromDataTransformer {\n"))
        #expect(text.contains("        super.allowedTopLevelClasses + [NSDictionary.self, SerializableColor.self, UIColor.self] + [\"_TtGC5MyApp3BoxSS_\"].compactMap(NSClassFromString)\n"))
        #expect(text.contains("/// it allows the secure defaults and the classes those archives hold beyond them.\n"))
        #expect(text.hasSuffix("    static func register() {\n        ValueTransformer.setValueTransformer(ItemTransformer(), forName: name)\n    }\n}\n#endif\n"))
    }

    @Test func foundationClassesAloneImportNoUIFramework() throws {
        let text = try source([["a": 1]], transformer: ["NSDictionary", "NSString"])
        #expect(text.contains("#if canImport(CoreData)\nimport CoreData\n\n"))
        #expect(!text.contains("UIKit"))
    }

    @Test func noTransformerMeansNoCoreDataSection() throws {
        #expect(try !source([["a": 1]]).contains("canImport(CoreData)"))
    }

    @Test func aTransformerWithNoClassesToAddKeepsTheDefaultsAndItsRegisteredName() throws {
        var generator = SwiftCodeGenerator(typeName: "Tint")
        generator.transformer = .init(className: "TintTransformer", registeredName: "UIColorValueTransformer", classes: [],
                                      documentation: ["Registered under UIColorValueTransformer."])
        let text = generator.source(for: try PayloadShapeInferrer.shape(of: [["a": 1]], encoding: .json))
        #expect(text.contains("        super.allowedTopLevelClasses\n"))
        #expect(text.contains("static let name = NSValueTransformerName(rawValue: \"UIColorValueTransformer\")"))
        #expect(text.contains("/// the secure defaults accept every class they hold.\n///\n/// Registered under UIColorValueTransformer.\n@objc(TintTransformer)\n"))
        #expect(!text.contains("UIKit"))
    }

    @Test(arguments: [("BowTieTint", true), ("Data", false), ("struct", false), ("1Tint", false), ("Tint Color", false), ("CodingKeys", false)])
    func typeNamesAreCheckedBeforeUse(name: String, valid: Bool) {
        #expect(SwiftCodeGenerator.isValidTypeName(name) == valid)
    }
}
