import ArchivePayload
import CoreDataModel
import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
import StoreFixtures
import Testing

/// The generated file compiles with `swiftc` as it is, and a program built from it decodes every
/// value that `migrate` (or `unarchive`) makes of the same data. One compiler run per test.
@Suite(.enabled(if: GeneratedCodeCheck.swiftc != nil, "needs swiftc"))
struct CodegenCompileTests {
    static func run(_ arguments: [String]) throws -> ArchivistProcess.Result {
        let r = try ArchivistProcess.run(arguments)
        #expect(r.status == 0, "archivist \(arguments.joined(separator: " ")): \(r.err)")
        return r
    }

    /// The USERS.md patterns in Fixtures/archives, one value each (two for UserDetails, whose
    /// second value is a JSON payload written by an earlier migration), and a BowTie store whose
    /// tint colors are partly migrated already, to JSON and to property lists.
    @Test func generatedTypesCompileAndDecodeEveryMigratedValueOfTheFixtures() throws {
        var check = try GeneratedCodeCheck(name: "codegen-fixtures")
        defer { check.remove() }

        // A BowTie store with five rows already JSON: 49 archives, 5 JSON payloads, 6 NULL.
        let store = try StoreCLITests.makeStore(rows: 60)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            for pk in 1...5 {
                let color = try #require(store.fixture.tintColor(row: pk))
                try db.execute(sql: "UPDATE ZBOWTIE SET ZTINTCOLOR = ? WHERE Z_PK = ?", arguments: [try JSONEncoder().encode(color), pk])
            }
        }
        try queue.close()
        let plistStore = try StoreCLITests.makeStore(rows: 20)
        let bowTie = try Self.run(["codegen", store.path, "--attribute", "BowTie.tintColor", "-o", check.sourcePath("BowTieTintColor")])
        #expect(bowTie.err.isEmpty)
        _ = try Self.run(["codegen", plistStore.path, "--attribute", "BowTie.tintColor", "--to", "plist", "--type-name", "PlistTint",
                          "-o", check.sourcePath("PlistTint")])
        _ = try Self.run(["migrate", store.path, "--attribute", "BowTie.tintColor", "--to", "json", "--allow", "UIColor", "--no-backup"])
        _ = try Self.run(["migrate", plistStore.path, "--attribute", "BowTie.tintColor", "--to", "plist", "--allow", "UIColor", "--no-backup"])
        let migrated = try CodegenCLITests.values(store.path, table: "ZBOWTIE", column: "ZTINTCOLOR")
        #expect(migrated.count == 54)
        check.expect("BowTieTintColor", decodes: migrated)
        let plists = try CodegenCLITests.values(plistStore.path, table: "ZBOWTIE", column: "ZTINTCOLOR")
        #expect(plists.count == 18)
        check.expect("PlistTint", decodes: plists, with: .propertyList)

        // One file each: codegen's flags, then unarchive's (the same mapping, and what the check needs).
        let cases: [(type: String, files: [String], codegen: [String], unarchive: [String])] = [
            ("UIColorTint", ["uicolor-tint.bplist"], [], ["--allow", "UIColor"]),
            ("PaletteColor", ["serializable-color-mangled.bplist"], [], ["--allow", "Eventail.SerializableColor"]),
            ("ConfigurationPayload", ["configuration-box-json.bplist"], ["--expand-nested", "--select", ".unbox"],
             ["--only", "MyApp.ConfigurationBox,NSData"]),
            ("PhotoLocation", ["relative-url.bplist"], [], []),
            ("Tags", ["legacy-string-array.bplist"], [], []),
        ]
        for c in cases {
            let files = c.files.map(CodegenCLITests.archive)
            _ = try Self.run(["codegen"] + files + c.codegen + ["--type-name", c.type, "-o", check.sourcePath(c.type)])
            var payloads: [Data] = []
            for file in files {
                payloads.append(try Self.run(["unarchive", file, "--to", "json"] + c.codegen + c.unarchive).stdout)
            }
            check.expect(c.type, decodes: payloads)
        }

        // An archive and a JSON payload together: the fields each lacks are optional.
        let nscoding = CodegenCLITests.archive("user-details-nscoding.bplist")
        let migratedUser = try CodegenCLITests.write(#"{"eyeColor":"green","hairColor":"red"}"#, "user.json")
        let user = try Self.run(["codegen", nscoding, migratedUser, "--type-name", "UserDetailsRecord"])
        #expect(user.out.contains("""
            struct UserDetailsRecord: Codable, Hashable, Sendable {
                var eyeColor: String
                var carsNumber: Int?
                var hairColor: String?
            }
            """))
        try Data(user.stdout).write(to: URL(fileURLWithPath: check.sourcePath("UserDetailsRecord")))
        check.expect("UserDetailsRecord", decodes: [
            try Self.run(["unarchive", nscoding, "--to", "json", "--no-check"]).stdout,
            try Data(contentsOf: URL(fileURLWithPath: migratedUser)),
        ])

        // PropertyListEncoder's payload, decoded by PropertyListDecoder as it is.
        let codable = CodegenCLITests.archive("user-details-codable.bplist")
        _ = try Self.run(["codegen", codable, "--to", "plist", "--type-name", "UserDetailsPlist", "-o", check.sourcePath("UserDetailsPlist")])
        check.expect("UserDetailsPlist", decodes: [try Data(contentsOf: URL(fileURLWithPath: codable))], with: .propertyList)

        // JSON payloads with ISO 8601 dates, UUIDs, URLs, widening numbers and a map by bundle id.
        let visits = [
            #"{"when":"2024-05-01T10:00:00Z","id":"5C1A3B2E-7D4F-4E21-9A8B-2F0C6D1E3B47","site":"https://example.com/a","count":1,"apps":{}}"#,
            #"{"when":"2001-01-01T00:00:00Z","id":"0b3f6c1e-2d4a-4f5b-8c6d-7e8f9a0b1c2d","count":2.5,"apps":{"com.apple.news":{"opened":3}},"default":null}"#,
        ]
        let visitFiles = try visits.enumerated().map { try CodegenCLITests.write($0.element, "visit\($0.offset).json") }
        let visit = try Self.run(["codegen"] + visitFiles + ["--date-strategy", "iso8601", "--type-name", "Visit"])
        for line in ["var when: Date", "var id: UUID", "var site: URL?", "var count: Double", "var apps: [String: App]",
                     "var defaultValue: String? // only ever null: String is a guess", "case defaultValue = \"default\"",
                     "decoder.dateDecodingStrategy = .iso8601"] {
            #expect(visit.out.contains(line), "\(line)")
        }
        try Data(visit.stdout).write(to: URL(fileURLWithPath: check.sourcePath("Visit")))
        check.expect("Visit", decodes: visits.map { Data($0.utf8) }, with: .json(dateStrategy: "iso8601"))

        // The Palette store's Group.darkColor, named by the store's model: from its archives, then
        // from the JSON migrate writes, with the codegen command migrate prints.
        let palette = try ModelCLITests.paletteStore()
        _ = try Self.run(["codegen", palette, "--attribute", "Group.darkColor", "-o", check.sourcePath("GroupDarkColor")])
        let migratePalette = try Self.run(["migrate", palette, "--attribute", "Group.darkColor", "--to", "json", "--no-backup",
                                           "--transformer", "UIColorValueTransformer=UIColor"])
        let printed = try #require(Self.printedCodegenCommand(migratePalette.out))
        #expect(printed == "archivist codegen \(palette) --attribute Group.darkColor")
        let after = try ArchivistProcess.runCommandLine(printed + " --type-name GroupDarkColorAfter -o " + check.sourcePath("GroupDarkColorAfter"))
        #expect(after.status == 0, "\(after.err)")
        let paletteValues = try CodegenCLITests.values(palette, table: "ZGROUP", column: "ZDARKCOLOR")
        #expect(paletteValues.count == 36)
        check.expect("GroupDarkColor", decodes: paletteValues)
        check.expect("GroupDarkColorAfter", decodes: paletteValues)

        // The transformers, against stand-ins for the Darwin-only API: registered under their name
        // (the app's own, for Group.darkColor), allowing the secure defaults and the classes the
        // archives hold beyond them.
        let transformers = [("BowTieTintColor", "BowTieTintColorTransformer"), ("UserDetailsRecord", "UserDetailsRecordTransformer"),
                            ("ConfigurationPayload", "ConfigurationPayloadTransformer"), ("GroupDarkColor", "UIColorValueTransformer")]
        for (type, registeredName) in transformers {
            let generated = check.directory.appendingPathComponent(type + ".swift").path
            try check.addTransformer(from: try String(contentsOfFile: generated, encoding: .utf8), name: type)
            check.statements += [
                "\(type)Transformer.register()",
                "print(\"NOTE \(type) \\(ValueTransformer.registered[\"\(registeredName)\"] is \(type)Transformer) \\(\(type)Transformer.allowedTopLevelClasses.map { String(describing: $0) }.joined(separator: \",\"))\")",
            ]
        }

        let outcome = try check.run()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        for entry in check.entries {
            #expect(outcome.decoded[entry.typeName] == entry.payloads.count, "\(entry.typeName)")
        }
        let defaults = "NSArray,NSDictionary,NSSet,NSString,NSNumber,NSDate,NSData,NSURL,NSUUID,NSNull"
        for (type, added) in [("BowTieTintColor", "UIColor"), ("UserDetailsRecord", "UserDetails"),
                              ("ConfigurationPayload", "ConfigurationBox"), ("GroupDarkColor", "UIColor")] {
            #expect(outcome.notes.contains { $0.hasPrefix("\(type) true ") && $0.hasSuffix("\(defaults),\(added)") }, "\(type): \(outcome.notes)")
        }
    }

    /// The `archivist codegen …` line a successful `migrate` prints.
    static func printedCodegenCommand(_ output: String) -> String? {
        let prefix = "the Codable type that decodes the new values: "
        return output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Every attribute of the real stores in ../shared/corpus/stores that holds keyed archives,
    /// named by each store's model (Apple Notes included): on a private copy, codegen before the
    /// migration (from the archives) and after it (from the JSON it wrote, with the command
    /// migrate prints), then the migration with exactly the classes codegen's transformer
    /// allows; both generated types must decode every migrated value.
    @Test(.enabled(if: CorpusStores.isAvailable, "../shared/corpus/stores is absent"))
    func generatedTypesCompileAndDecodeEveryMigratedValueOfRealStores() throws {
        var check = try GeneratedCodeCheck(name: "codegen-real-stores")
        defer { check.remove() }
        var checked: [String] = []
        var nothingToDecode: [String] = []
        var transformers: [String: Int] = [:]
        for storeName in CorpusStores.names {
            let copy = try CorpusStores.copy(storeName)
            defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: copy).deletingLastPathComponent().path) }
            let scan = try ArchivistProcess.run(["scan", copy, "--format", "json"])
            #expect(scan.status == 0, "every store opens: \(storeName): \(scan.err)")
            let report = try #require(try JSONSerialization.jsonObject(with: scan.stdout) as? [String: Any])
            for table in report["tables"] as? [[String: Any]] ?? [] {
                for column in table["columns"] as? [[String: Any]] ?? [] {
                    let kinds = column["kinds"] as? [String: Int] ?? [:]
                    guard (kinds["keyedArchiveBinary"] ?? 0) + (kinds["keyedArchiveXML"] ?? 0) > 0,
                          let tableName = table["name"] as? String, let columnName = column["column"] as? String,
                          let attribute = column["attribute"] as? String else { continue }
                    // The attribute as the library reads it for codegen: the model's attribute, and
                    // the classes beyond the secure defaults in the archives that map to a payload.
                    var required = RequiredClasses(beyond: .transformerDefault)
                    var mapped = 0
                    let extractor = StoredPayloadExtractor()
                    let location = try AttributeValueReader().read(path: copy, attribute: attribute) { _, value in
                        if case .archive(_, let archive) = extractor.extract(value) {
                            required.add(archive)
                            mapped += 1
                        }
                    }
                    #expect(location.attributeName == attribute, "scan and codegen name it alike: \(storeName) \(attribute)")
                    guard mapped > 0 else {
                        // CloudKit's system fields (NoteStore): archives with no root object, which
                        // migrate cannot convert either.
                        let none = try ArchivistProcess.run(["codegen", copy, "--attribute", attribute])
                        #expect(none.status == 1)
                        #expect(none.err.contains("archivist: \(copy): \(attribute) holds no value to infer a type from ("), "\(none.err)")
                        let dry = try ArchivistProcess.run(["migrate", copy, "--attribute", attribute, "--to", "json", "--dry-run", "--format", "json"])
                        let result = try #require(try JSONSerialization.jsonObject(with: dry.stdout) as? [String: Any])
                        #expect(result["converted"] as? Int == 0)
                        nothingToDecode.append(attribute)
                        continue
                    }
                    checked.append(attribute)
                    let typeName = "Real\(checked.count)"
                    let beforePath = check.sourcePath(typeName)
                    let before = try Self.run(["codegen", copy, "--attribute", attribute, "--type-name", typeName, "-o", beforePath])
                    #expect(before.err.isEmpty, "\(storeName) \(attribute): \(before.err)")
                    let source = try String(contentsOfFile: beforePath, encoding: .utf8)
                    #expect(source.hasPrefix("// Generated by `archivist codegen` from \(attribute) (\(tableName).\(columnName)) in \(storeName):\n// In the model: "))
                    // The transformer the model calls for, and the classes it adds to the defaults.
                    let plan = TransitionTransformer(attribute: location.attribute, attributeName: attribute, className: typeName + "Transformer",
                                                     needed: required.classes)
                    var allowed: [String] = []
                    switch plan {
                    case .subclass(_, let registeredName, let added, _):
                        #expect(source.contains("static let name = NSValueTransformerName(rawValue: \"\(registeredName)\")"), "\(storeName) \(attribute)")
                        let list = "super.allowedTopLevelClasses" + (added.isEmpty ? "" : " + [" + added.map { TransformerFix.swiftTypeName($0) + ".self" }.joined(separator: ", ") + "]")
                        #expect(source.contains("        \(list)\n"), "\(storeName) \(attribute)")
                        allowed = added
                        transformers["subclass", default: 0] += 1
                    case .secureDefaultsSuffice:
                        #expect(!source.contains("canImport(CoreData)"), "\(storeName) \(attribute)")
                        #expect(source.contains("// \(plan.note ?? "")\n"))
                        transformers["secureDefaultsSuffice", default: 0] += 1
                    case .notTransformable(_, let classes):
                        #expect(!source.contains("canImport(CoreData)"), "\(storeName) \(attribute)")
                        #expect(source.contains("// \(plan.note ?? "")\n"))
                        allowed = classes
                        transformers["notTransformable", default: 0] += 1
                    }
                    // What the transformer allows (the defaults and its added classes) converts every row.
                    let migrate = try Self.run(["migrate", copy, "--attribute", attribute, "--to", "json", "--no-backup"] + allowed.flatMap { ["--allow", $0] })
                    let afterPath = check.sourcePath(typeName + "After")
                    let afterArguments = " --type-name \(typeName)After -o \(afterPath)"
                    if location.attribute?.attributeType == .transformable {
                        // The command migrate prints, as printed.
                        let printed = try #require(Self.printedCodegenCommand(migrate.out), "\(storeName) \(attribute): \(migrate.out)")
                        #expect(printed == "archivist codegen \(copy) --attribute \(attribute)")
                        let after = try ArchivistProcess.runCommandLine(printed + afterArguments)
                        #expect(after.status == 0, "\(storeName) \(attribute): \(after.err)")
                    } else {
                        #expect(Self.printedCodegenCommand(migrate.out) == nil, "Binary Data needs no model change")
                        _ = try Self.run(["codegen", copy, "--attribute", attribute, "--type-name", typeName + "After", "-o", afterPath])
                    }
                    #expect(!(try String(contentsOfFile: afterPath, encoding: .utf8)).contains("canImport(CoreData)"),
                            "no archive is left, so no transformer: \(storeName) \(attribute)")
                    let values = try CodegenCLITests.values(copy, table: tableName, column: columnName)
                    check.expect(typeName, decodes: values)
                    check.expect(typeName + "After", decodes: values)
                }
            }
        }
        // Notes' two attributes with archives to decode are among them; its two of CloudKit
        // system fields are not.
        #expect(checked.count >= 19, "\(checked)")
        #expect(checked.contains("ICAccount.replicaIDToBundleIdentifier") && checked.contains("ICCloudSyncingObject.unappliedEncryptedRecord"))
        #expect(Set(nothingToDecode) == ["ICCloudSyncingObject.serverRecordData", "ICCloudSyncingObject.userSpecificServerRecordData"])
        #expect(transformers["subclass", default: 0] >= 1 && transformers["notTransformable", default: 0] >= 1, "\(transformers)")
        let outcome = try check.run()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        for entry in check.entries {
            #expect(outcome.decoded[entry.typeName] == entry.payloads.count, "\(entry.typeName)")
        }
    }
}
