import Foundation
import PropertyList
import StoreFixtures
import Testing

/// `archivist model`, and `scan` / `migrate` with the model, run as a user runs them.
@Suite struct ModelCLITests {
    static let models = ArchivistProcess.repository.appendingPathComponent("Fixtures/models")

    static func paletteStore() throws -> String {
        let path = ArchivistProcess.temporaryFile("Palette.sqlite")
        try PaletteStoreFixture().write(to: path)
        return path
    }

    @Test func modelAuditOfThePaletteStoreListsTheTwoAttributesToFixAndExitsOne() throws {
        let store = try Self.paletteStore()
        let r = try ArchivistProcess.run(["model", store, "--audit"])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.out.contains("Palette.sqlite: model from the store's Z_MODELCACHE, 4 entities"))
        #expect(r.out.contains("darkColor       Transformable  transformer UIColorValueTransformer, custom class UIColor, column ZDARKCOLOR"))
        #expect(r.out.contains("audit: 2 Transformable attributes that Core Data warns about or refuses"))
        #expect(r.out.contains("Group.accent (ZACCENT): NSSecureUnarchiveFromData with custom class Palette.SerializableColor, which its default list does not allow"))
        #expect(r.out.contains("super.allowedTopLevelClasses + [SerializableColor.self]"))
        #expect(r.out.contains("Group.recentSearches (ZRECENTSEARCHES): Transformable with no transformer"))
        #expect(r.out.contains("fix: set its Transformer to NSSecureUnarchiveFromDataTransformer"))
        #expect(r.out.contains("Group.darkColor: UIColorValueTransformer; rows: 36 values, 36 archives holding UIColor 36"))
        #expect(r.out.contains("to judge it here: --transformer UIColorValueTransformer=UIColor"))
        #expect(!r.out.contains("previewImage ("), "a transient attribute is never audited")
    }

    @Test func modelAuditWithTheTransformersClassesJudgesItsAttributeToo() throws {
        let store = try Self.paletteStore()
        let accepted = try ArchivistProcess.run(["model", store, "--audit", "--transformer", "UIColorValueTransformer=UIColor"])
        #expect(accepted.status == 1) // accent and recentSearches remain
        #expect(!accepted.out.contains("judged by the app's own transformers"))
        #expect(!accepted.out.contains("Group.darkColor (ZDARKCOLOR)"))
        let file = ArchivistProcess.temporaryFile("transformers.json")
        try Data(#"{"UIColorValueTransformer": ["NSString"]}"#.utf8).write(to: URL(fileURLWithPath: file))
        let refused = try ArchivistProcess.run(["model", store, "--audit", "--transformers", file, "--format", "json"])
        let json = try JSONSerialization.jsonObject(with: refused.stdout) as? [String: Any]
        let findings = (json?["audit"] as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        let dark = findings.first { $0["attribute"] as? String == "Group.darkColor" }
        #expect(dark?["problem"] as? String == "rowsRefusedByGivenClasses")
    }

    @Test func modelJSONUsesXcodesVocabularyWithNullWhereTheModelHasNothing() throws {
        let r = try ArchivistProcess.run(["model", Self.models.appendingPathComponent("Palette.xcdatamodeld").path, "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let json = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let entities = json?["entities"] as? [[String: Any]] ?? []
        let group = try #require(entities.first { $0["name"] as? String == "Group" })
        #expect(group["parentEntity"] is NSNull)
        #expect(group["representedClassName"] as? String == "PaletteGroup")
        let attributes = group["attributes"] as? [[String: Any]] ?? []
        let searches = try #require(attributes.first { $0["name"] as? String == "recentSearches" })
        #expect(searches["attributeType"] as? String == "Transformable")
        #expect(searches["valueTransformerName"] is NSNull)
        #expect(searches["customClassName"] is NSNull)
        #expect(searches["column"] as? String == "ZRECENTSEARCHES")
        let preview = try #require(attributes.first { $0["name"] as? String == "previewImage" })
        #expect(preview["transient"] as? Bool == true)
        #expect(preview["column"] is NSNull)
        let members = (group["relationships"] as? [[String: Any]])?.first
        #expect(members?["destinationEntity"] as? String == "Member")
        #expect(members?["toMany"] as? Bool == true)
    }

    @Test func theSourceAndCompiledBundlesPrintTheSameModel() throws {
        let source = try ArchivistProcess.run(["model", Self.models.appendingPathComponent("Palette.xcdatamodeld").path, "--format", "json"])
        let compiled = try ArchivistProcess.run(["model", Self.models.appendingPathComponent("Palette.momd").path, "--format", "json"])
        let a = try JSONSerialization.jsonObject(with: source.stdout) as? [String: Any]
        let b = try JSONSerialization.jsonObject(with: compiled.stdout) as? [String: Any]
        #expect((a?["entities"] as? NSArray) == (b?["entities"] as? NSArray))
        let store = try Self.paletteStore()
        let matched = try ArchivistProcess.run(["model", Self.models.appendingPathComponent("Palette.momd").path, "--store", store])
        #expect(matched.out.hasPrefix("Palette.momd: compiled model, version \"Palette 2\" (its entity hashes equal the store's), 4 entities"))
    }

    @Test func scanJudgesEachColumnByItsOwnTransformerWithAndWithoutTransformerFlags() throws {
        let store = try Self.paletteStore()
        let plain = try ArchivistProcess.run(["scan", store])
        #expect(plain.status == 0, "\(plain.err)")
        #expect(plain.out.contains("Group.darkColor (ZDARKCOLOR, BLOB)\n    model: Transformable, transformer UIColorValueTransformer, custom class UIColor"))
        #expect(plain.out.contains("judged by the app's own transformer UIColorValueTransformer, not here"))
        #expect(plain.out.contains("to judge it here: --transformer UIColorValueTransformer=UIColor"))
        #expect(!plain.out.contains("refused (UIColor"))
        #expect(plain.out.contains("allow-list (NSSecureUnarchiveFromData: defaults): 0 accepted, 20 refused (Palette.SerializableColor 20)"))
        #expect(plain.out.contains("allow-list (NSKeyedUnarchiveFromData reads any class; as NSSecureUnarchiveFromData would judge it: defaults): 40 accepted, 0 refused"))
        #expect(plain.out.contains("transient (never stored): Group.previewImage"))
        let judged = try ArchivistProcess.run(["scan", store, "--transformer", "UIColorValueTransformer=UIColor"])
        #expect(judged.out.contains("allow-list (UIColorValueTransformer: UIColor): 36 accepted, 0 refused"))
        let json = try ArchivistProcess.run(["scan", store, "--format", "json"])
        let root = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let columns = (root?["tables"] as? [[String: Any]])?.flatMap { $0["columns"] as? [[String: Any]] ?? [] } ?? []
        let dark = try #require(columns.first { $0["attribute"] as? String == "Group.darkColor" })
        let model = dark["model"] as? [String: Any]
        #expect(model?["attributeType"] as? String == "Transformable")
        #expect(model?["valueTransformerName"] as? String == "UIColorValueTransformer")
        #expect(model?["customClassName"] as? String == "UIColor")
        let verdict = dark["allowList"] as? [String: Any]
        #expect(verdict?["judgedBy"] is NSNull)
        #expect(verdict?["judgeWith"] as? String == "--transformer UIColorValueTransformer=UIColor")
        let old = try ArchivistProcess.run(["scan", store, "--no-model"])
        #expect(old.out.contains("Group.darkcolor (ZDARKCOLOR, BLOB)"))
    }

    @Test func migrateWithTheModelPrintsTheModelChangeAndPointsAtCodegen() throws {
        let store = try Self.paletteStore()
        let r = try ArchivistProcess.run(["migrate", store, "--attribute", "Group.darkColor", "--to", "json", "--no-backup",
                                          "--transformer", "UIColorValueTransformer=UIColor"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Group.darkColor (ZGROUP.ZDARKCOLOR) → JSON"))
        #expect(r.out.contains("model change the app needs: Group.darkColor: Transformable → Binary Data, transformer UIColorValueTransformer removed, custom class UIColor removed"))
        #expect(r.out.contains("archivist codegen \(store) --attribute Group.darkColor"))
    }

    @Test(.enabled(if: CorpusStores.isAvailable, "needs ../shared/corpus/stores"), arguments: CorpusStores.names)
    func everyCorpusStoreScansAndNamesAttributesAsItsModelDoes(_ name: String) throws {
        let path = try CorpusStores.copy(name)
        let r = try ArchivistProcess.run(["scan", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("  model: the store's Z_MODELCACHE\n"))
        #expect(!r.out.contains("warning:"))
        let named = [
            "Accounts3.sqlite": "Account.dataclassProperties", "CallHistory.sqlite": "callIDString",
            "ChatStorage.sqlite": "WAMessageInfo.receiptInfo", "ContactsV2.sqlite": "WAAddressBookContact.deviceList",
            "NoteStore.sqlite": "ICAccount.replicaIDToBundleIdentifier", "SkypeSpacesDogfood.sqlite": "Conversation.topics",
        ]
        if let expected = named[name] { #expect(r.out.contains(expected), "\(name)") }
    }
}
