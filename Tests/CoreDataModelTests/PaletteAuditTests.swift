import ArchivePayload
import CoreDataModel
import CoreDataStore
import Foundation
import StoreFixtures
import Testing

/// The Palette store's four Transformable attributes, each judged by its own transformer, in
/// the scan, the audit and a migration; with and without `--transformer`.
@Suite struct PaletteAuditTests {
    static func column(_ report: ScanReport, _ name: String) throws -> ColumnReport {
        try #require(report.columns.first { $0.displayName == name }, "\(report.columns.map(\.displayName))")
    }

    @Test func theScanNamesAttributesAsTheModelDoesAndJudgesEachByItsOwnTransformer() throws {
        let path = try ModelFixtureTests.temporaryStore()
        let report = try StoreScanner().scan(path: path)
        #expect(report.columns.map(\.displayName) == ["Group.accent", "Group.darkColor", "Group.recentSearches", "Member.avatar"])
        // The app's own UIColorValueTransformer: classes counted, no verdict, the flag that would judge it.
        let dark = try Self.column(report, "Group.darkColor")
        #expect(dark.judgement.basis == .appCode("UIColorValueTransformer"))
        #expect(dark.judgement.judgedBy == nil)
        #expect(dark.tally.classes == ["UIColor": 36])
        #expect(dark.tally.accepted == 0 && dark.tally.refused == 0)
        #expect(dark.suggestedTransformerFlag == "--transformer UIColorValueTransformer=UIColor")
        // NSSecureUnarchiveFromData with a custom class: its defaults refuse every value.
        let accent = try Self.column(report, "Group.accent")
        #expect(accent.judgement.judgedBy == "NSSecureUnarchiveFromData")
        #expect(accent.tally.refused == 20)
        #expect(accent.tally.suggestedAdditions == ["Palette.SerializableColor"])
        // No transformer: judged as the secure transformer would, once the app switches.
        let searches = try Self.column(report, "Group.recentSearches")
        #expect(searches.judgement.basis == .insecureTransformer("NSKeyedUnarchiveFromData"))
        #expect(searches.tally.accepted == 40 && searches.tally.refused == 0)
        // Transient: not a column, and not missing.
        let group = try #require(report.tables.first { $0.name == "ZGROUP" })
        #expect(group.transientAttributes == ["Group.previewImage"])
        #expect(report.warnings.isEmpty)
        // Binary Data holding PNGs is not judged by any transformer.
        #expect(try Self.column(report, "Member.avatar").judgement.basis == .notTransformable(.binaryData))
    }

    @Test func givenTheAppTransformersClassesTheScanJudgesItsColumn() throws {
        let path = try ModelFixtureTests.temporaryStore()
        var options = ScanOptions()
        options.transformers = TransformerAllowLists(["UIColorValueTransformer": ["UIColor"]])
        let dark = try Self.column(try StoreScanner(options: options).scan(path: path), "Group.darkColor")
        #expect(dark.judgement.judgedBy == "UIColorValueTransformer")
        #expect(dark.tally.accepted == 36 && dark.tally.refused == 0)
        #expect(dark.suggestedTransformerFlag == nil)
    }

    @Test func theAuditListsTheInsecureAndTheRefusedAttributesWithTheirExactFix() throws {
        let path = try ModelFixtureTests.temporaryStore()
        let audit = try #require(try StoreScanner().audit(path: path).audit)
        #expect(audit.findings.map { "\($0.entity).\($0.attribute.name)" } == ["Group.accent", "Group.recentSearches"])
        let accent = audit.findings[0]
        #expect(accent.problem == .customClassOutsideDefaults("Palette.SerializableColor"))
        #expect(accent.fix.transformerName == "SerializableColorTransformer")
        #expect(accent.fix.addedClasses == ["Palette.SerializableColor"])
        #expect(accent.fix.swiftSource.contains("super.allowedTopLevelClasses + [SerializableColor.self]"))
        #expect(accent.rows?.classes == ["Palette.SerializableColor": 20])
        let searches = audit.findings[1]
        #expect(searches.problem == .noTransformer)
        #expect(searches.fix.className == nil)
        #expect(searches.fix.transformerName == "NSSecureUnarchiveFromData")
        #expect(audit.judgedByApp.map(\.flag) == ["--transformer UIColorValueTransformer=UIColor"])
    }

    @Test func theAuditJudgesAnAppTransformerWhoseClassesAreGiven() throws {
        let path = try ModelFixtureTests.temporaryStore()
        var options = ScanOptions()
        options.transformers = TransformerAllowLists(["UIColorValueTransformer": ["UIColor"]])
        let accepted = try #require(try StoreScanner(options: options).audit(path: path).audit)
        #expect(accepted.judgedByApp.isEmpty)
        #expect(!accepted.findings.contains { $0.attribute.name == "darkColor" })
        // A list that leaves the rows' class out is a finding, with the class to add.
        options.transformers = TransformerAllowLists(["UIColorValueTransformer": ["NSString"]])
        let refused = try #require(try StoreScanner(options: options).audit(path: path).audit)
        let dark = try #require(refused.findings.first { $0.attribute.name == "darkColor" })
        #expect(dark.problem == .rowsRefusedByGivenClasses(transformer: "UIColorValueTransformer", classes: ["UIColor"]))
        // The app's class rewritten on the secure defaults: NSString is one of them, UIColor is added.
        #expect(dark.fix.className == "UIColorValueTransformer")
        #expect(dark.fix.addedClasses == ["UIColor"])
        #expect(dark.fix.swiftSource.contains("super.allowedTopLevelClasses + [UIColor.self]"))
        #expect(dark.fix.swiftSource.contains("NSValueTransformerName(rawValue: \"UIColorValueTransformer\")"))
    }

    @Test func aModelFileWithoutAStoreIsAuditedFromTheModelAlone() throws {
        let audit = ModelAudit(model: PaletteModel.version2)
        #expect(audit.findings.map(\.problem) == [.customClassOutsideDefaults("Palette.SerializableColor"), .noTransformer])
        #expect(audit.findings.allSatisfy { $0.rows == nil })
    }

    @Test func migratingTheAppTransformersColumnUsesItsGivenClassesAndNamesTheModelChange() throws {
        let path = try ModelFixtureTests.temporaryStore()
        var options = MigrationOptions(target: .json, backup: .none)
        let refused = try AttributeMigrator(options: MigrationOptions(target: .json, dryRun: true, backup: .none)).migrate(path: path, attribute: "group.DARKCOLOR")
        #expect(refused.location.description == "Group.darkColor (ZGROUP.ZDARKCOLOR)")
        #expect(refused.failedCount == 36)
        options.transformers = TransformerAllowLists(["UIColorValueTransformer": ["UIColor"]])
        let result = try AttributeMigrator(options: options).migrate(path: path, attribute: "Group.darkColor")
        #expect(result.converted == 36)
        #expect(!result.hasFailures)
        #expect(result.modelChange?.sentence == "Group.darkColor: Transformable → Binary Data, transformer UIColorValueTransformer removed, custom class UIColor removed")
    }

    @Test func anInheritedAttributeIsFoundInItsSubentitysRows() throws {
        let path = try ModelFixtureTests.temporaryStore()
        let result = try AttributeMigrator(options: MigrationOptions(target: .json, dryRun: true, backup: .none)).migrate(path: path, attribute: "Team.badge")
        #expect(result.location.column.name == "ZBADGE1")
        #expect(result.total == 7) // rows 5, 10, 15, 20, 25, 30, 40 (35 is a Club)
        let transient = #expect(throws: StoreError.self) {
            try AttributeMigrator(options: MigrationOptions(target: .json, dryRun: true, backup: .none)).migrate(path: path, attribute: "Group.previewImage")
        }
        #expect(transient?.message.contains("transient") == true)
    }
}
