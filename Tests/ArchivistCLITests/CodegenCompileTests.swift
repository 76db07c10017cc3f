import ArchivePayload
import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
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

        // The transformers, against stand-ins for the Darwin-only API: registered under their name,
        // allowing exactly the archives' classes.
        for type in ["BowTieTintColor", "UserDetailsRecord", "ConfigurationPayload"] {
            let generated = check.directory.appendingPathComponent(type + ".swift").path
            try check.addTransformer(from: try String(contentsOfFile: generated, encoding: .utf8), name: type)
            check.statements += [
                "\(type)Transformer.register()",
                "print(\"NOTE \(type) \\(ValueTransformer.registered[\"\(type)Transformer\"] is \(type)Transformer) \\(\(type)Transformer.allowedTopLevelClasses.map { String(describing: $0) })\")",
            ]
        }

        let outcome = try check.run()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        for entry in check.entries {
            #expect(outcome.decoded[entry.typeName] == entry.payloads.count, "\(entry.typeName)")
        }
        #expect(outcome.notes.contains { $0.hasPrefix("BowTieTintColor true [") && $0.hasSuffix("UIColor\"]") }, "\(outcome.notes)")
        #expect(outcome.notes.contains { $0.hasPrefix("UserDetailsRecord true [") && $0.contains("UserDetails") && $0.contains("NSString") }, "\(outcome.notes)")
        #expect(outcome.notes.contains { $0.hasPrefix("ConfigurationPayload true [") && $0.contains("ConfigurationBox") && $0.contains("NSData") }, "\(outcome.notes)")
    }

    /// Every column of the real stores in ../shared/corpus/stores that holds keyed archives: on a
    /// copy, codegen before the migration (from the archives) and after it (from the JSON it
    /// wrote), then the migration with exactly the classes codegen's transformer allows; both
    /// generated types must decode every migrated value.
    @Test(.enabled(if: RealStores.isAvailable, "../shared/corpus/stores is absent"))
    func generatedTypesCompileAndDecodeEveryMigratedValueOfRealStores() throws {
        var check = try GeneratedCodeCheck(name: "codegen-real-stores")
        defer { check.remove() }
        var columnsChecked = 0
        for storeName in RealStores.names {
            let copy = try RealStores.copy(storeName)
            defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: copy).deletingLastPathComponent().path) }
            let scan = try ArchivistProcess.run(["scan", copy, "--format", "json"])
            guard scan.status == 0 else {
                // A store whose schema scan refuses today (NoteStore: issue 13's model work).
                #expect(scan.err.contains("does not exist"), "\(storeName): \(scan.err)")
                continue
            }
            let report = try #require(try JSONSerialization.jsonObject(with: scan.stdout) as? [String: Any])
            for table in report["tables"] as? [[String: Any]] ?? [] {
                for column in table["columns"] as? [[String: Any]] ?? [] {
                    let kinds = column["kinds"] as? [String: Int] ?? [:]
                    guard (kinds["keyedArchiveBinary"] ?? 0) + (kinds["keyedArchiveXML"] ?? 0) > 0,
                          let tableName = table["name"] as? String, let columnName = column["column"] as? String else { continue }
                    let attribute = "\(tableName).\(columnName)"
                    columnsChecked += 1
                    let typeName = "Real\(columnsChecked)"
                    let beforePath = check.sourcePath(typeName)
                    let before = try Self.run(["codegen", copy, "--attribute", attribute, "--type-name", typeName, "-o", beforePath])
                    #expect(before.err.isEmpty, "\(storeName) \(attribute): \(before.err)")
                    // The classes the transformer allows are the ones migrate needs, and no more.
                    var required = RequiredClasses()
                    try AttributeValueReader().read(path: copy, attribute: attribute) { _, value in
                        if let archive = value.archive { required.add(archive) }
                    }
                    let swiftNames = required.classes.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
                    let source = try String(contentsOfFile: beforePath, encoding: .utf8)
                    #expect(source.contains("        [" + swiftNames.map { "\($0).self" }.joined(separator: ", ") + "]\n"), "\(storeName) \(attribute)")
                    _ = try Self.run(["migrate", copy, "--attribute", attribute, "--to", "json", "--no-backup",
                                      "--only", required.classes.joined(separator: ",")])
                    let afterPath = check.sourcePath(typeName + "After")
                    _ = try Self.run(["codegen", copy, "--attribute", attribute, "--type-name", typeName + "After", "-o", afterPath])
                    #expect(!(try String(contentsOfFile: afterPath, encoding: .utf8)).contains("canImport(CoreData)"),
                            "no archive is left, so no transformer: \(storeName) \(attribute)")
                    let values = try CodegenCLITests.values(copy, table: tableName, column: columnName)
                    check.expect(typeName, decodes: values)
                    check.expect(typeName + "After", decodes: values)
                }
            }
        }
        #expect(columnsChecked >= 10)
        let outcome = try check.run()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        for entry in check.entries {
            #expect(outcome.decoded[entry.typeName] == entry.payloads.count, "\(entry.typeName)")
        }
    }
}

/// The real Core Data stores of ../shared/corpus/stores, copied before use: they are evidence
/// and are never opened in place.
enum RealStores {
    static let directory = ArchivistProcess.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/stores")

    static var isAvailable: Bool { !names.isEmpty }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".sqlite") }.sorted()
    }

    /// Copies the store with its -wal and -shm into a fresh folder; returns the copy's path.
    static func copy(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: ArchivistProcess.temporaryFile("store"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            let source = directory.appendingPathComponent(name + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let destination = folder.appendingPathComponent(name + suffix)
            try FileManager.default.copyItem(at: source, to: destination)
            // The corpus is read-only; the copy must not be.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: destination.path)
        }
        return folder.appendingPathComponent(name).path
    }
}
