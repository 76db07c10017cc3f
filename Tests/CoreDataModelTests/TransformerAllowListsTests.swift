import CoreDataModel
import Foundation
import Testing

/// `--transformer NAME=CLASS[,CLASS…]` and `--transformers FILE`.
@Suite struct TransformerAllowListsTests {
    @Test func flagsGiveEachTransformerItsClassesAndRepeatedFlagsAddUp() throws {
        let lists = try TransformerAllowLists(flags: ["UIColorValueTransformer=UIColor", "BoxTransformer=MyApp.Box, NSData", "BoxTransformer=NSData,NSString"])
        #expect(lists["UIColorValueTransformer"] == ["UIColor"])
        #expect(lists["BoxTransformer"] == ["MyApp.Box", "NSData", "NSString"])
    }

    @Test(arguments: ["UIColor", "=UIColor", "UIColorValueTransformer=", "UIColorValueTransformer= , "])
    func aFlagWithoutANameOrAClassIsRefused(_ flag: String) {
        #expect(throws: ModelError.self) { try TransformerAllowLists(flags: [flag]) }
    }

    @Test func aJSONFileMapsNamesToArraysOrCommaSeparatedStrings() throws {
        let lists = try TransformerAllowLists(json: Data(#"{"UIColorValueTransformer": ["UIColor"], "BoxTransformer": "MyApp.Box,NSData"}"#.utf8))
        #expect(lists["UIColorValueTransformer"] == ["UIColor"])
        #expect(lists["BoxTransformer"] == ["MyApp.Box", "NSData"])
    }

    @Test func aJSONFileThatIsNotAnObjectOfNamesSaysWhichKeyIsWrong() {
        #expect(throws: ModelError.self) { try TransformerAllowLists(json: Data("[1, 2]".utf8)) }
        let error = #expect(throws: ModelError.self) { try TransformerAllowLists(json: Data(#"{"T": [1]}"#.utf8)) }
        #expect(error?.location == "key \"T\"")
    }

    @Test func eachTransformerNameHasItsKind() {
        #expect(ValueTransformerKind(name: nil) == .none)
        #expect(ValueTransformerKind(name: "NSKeyedUnarchiveFromData") == .insecure("NSKeyedUnarchiveFromData"))
        #expect(ValueTransformerKind(name: "NSSecureUnarchiveFromData") == .secureUnarchive)
        #expect(ValueTransformerKind(name: "UIColorValueTransformer") == .appDefined("UIColorValueTransformer"))
        #expect(ValueTransformerKind(name: nil).isInsecure)
    }
}
