import Foundation
import GRDB
import Testing

/// What a user is told when a file is not what the verb wants: the same words from every verb.
@Suite struct DiagnosisCLITests {
    /// The first bytes of a JPEG (a JFIF header), as a camera writes them.
    static let jpeg: String = {
        let path = ArchivistProcess.temporaryFile("photo.jpg")
        try? Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]).write(to: URL(fileURLWithPath: path))
        return path
    }()

    /// The UIColor fixture cut after 200 bytes, as `head -c 200` leaves it.
    static let truncated: String = {
        let path = ArchivistProcess.temporaryFile("cut.bplist")
        let whole = (try? Data(contentsOf: URL(fileURLWithPath: PayloadCLITests.archive("uicolor-tint.bplist")))) ?? Data()
        try? whole.prefix(200).write(to: URL(fileURLWithPath: path))
        return path
    }()

    static let empty: String = {
        let path = ArchivistProcess.temporaryFile("empty.plist")
        try? Data().write(to: URL(fileURLWithPath: path))
        return path
    }()

    /// Verbs that read a property list, and those that read a keyed archive.
    static let plistVerbs: [[String]] = [["print"], ["lint"], ["convert", "--to", "xml"], ["archive", "--class", ".=UIColor", "--to", "xml"]]
    static let archiveVerbs: [[String]] = [["inspect"], ["check"], ["unarchive", "--to", "json"], ["rewrite", "--rename-class", "A=B", "--to", "xml"]]

    @Test func aJPEGIsCalledAJPEGByEveryReadingVerb() throws {
        for verb in Self.plistVerbs + Self.archiveVerbs {
            let r = try ArchivistProcess.run(verb + [Self.jpeg])
            #expect(r.status == 1, "\(verb)")
            let what = Self.plistVerbs.contains(verb) ? "not a property list" : "not a keyed archive"
            #expect(r.err == "archivist: \(Self.jpeg): \(what): JPEG image, 20 bytes\n", "\(verb): \(r.err)")
            #expect(r.out.isEmpty)
        }
    }

    @Test func anSQLiteStoreGivenToAPlistVerbPointsToScan() throws {
        let store = try StoreCLITests.makeStore(rows: 3)
        for verb in Self.plistVerbs + Self.archiveVerbs {
            let r = try ArchivistProcess.run(verb + [store.path])
            #expect(r.status == 1, "\(verb)")
            #expect(r.err.contains(": SQLite database, "), "\(verb): \(r.err)")
            #expect(r.err.contains("use `archivist scan`"), "\(verb): \(r.err)")
            #expect(!r.err.contains("UTF-8"), "\(verb): \(r.err)")
        }
    }

    @Test func aBinaryPlistCutShortIsCalledTruncatedByEveryReadingVerb() throws {
        for verb in Self.plistVerbs + Self.archiveVerbs {
            let r = try ArchivistProcess.run(verb + [Self.truncated])
            #expect(r.status == 1, "\(verb)")
            #expect(r.err.contains("truncated: the file ends at byte 200; its trailer needs the file to run to at least byte "), "\(verb): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1)
        }
    }

    @Test func anEmptyFileIsCalledEmptyByEveryReadingVerb() throws {
        for verb in Self.plistVerbs + Self.archiveVerbs {
            let r = try ArchivistProcess.run(verb + [Self.empty])
            #expect(r.status == 1, "\(verb)")
            #expect(r.err == "archivist: \(Self.empty): empty input: the file has no bytes\n", "\(verb): \(r.err)")
        }
    }

    /// The keypath, edit and literal verbs, each with what follows FILE.
    static let keyPathVerbs: [(verb: [String], tail: [String])] = [
        (["get"], ["a"]), (["get"], ["a", "--to", "json"]), (["type"], ["a"]),
        (["set"], ["a", "--string", "b", "-o", "-"]), (["insert"], ["a", "--integer", "1", "-o", "-"]),
        (["replace"], ["a", "--bool", "true", "-o", "-"]), (["remove"], ["a", "-o", "-"]),
        (["convert", "--to", "swift"], []), (["convert", "--to", "objc"], []),
    ]

    @Test func keypathEditAndLiteralVerbsNameWhatTheyWereGivenInstead() throws {
        let store = try StoreCLITests.makeStore(rows: 3)
        for (verb, tail) in Self.keyPathVerbs {
            let jpeg = try ArchivistProcess.run(verb + [Self.jpeg] + tail)
            #expect(jpeg.status == 1, "\(verb)")
            #expect(jpeg.err == "archivist: \(Self.jpeg): not a property list: JPEG image, 20 bytes\n", "\(verb): \(jpeg.err)")
            #expect(jpeg.out.isEmpty)
            let cut = try ArchivistProcess.run(verb + [Self.truncated] + tail)
            #expect(cut.status == 1, "\(verb)")
            #expect(cut.err.contains("truncated: the file ends at byte 200;"), "\(verb): \(cut.err)")
            let sqlite = try ArchivistProcess.run(verb + [store.path] + tail)
            #expect(sqlite.err.contains(": not a property list: SQLite database, ") && sqlite.err.contains("use `archivist scan`"), "\(verb): \(sqlite.err)")
            #expect(!sqlite.err.contains("UTF-8"), "\(verb): \(sqlite.err)")
            let empty = try ArchivistProcess.run(verb + [Self.empty] + tail)
            #expect(empty.err == "archivist: \(Self.empty): empty input: the file has no bytes\n", "\(verb): \(empty.err)")
        }
    }

    @Test func diffNamesWhatItWasGivenWithItsTroubleStatus() throws {
        let store = try StoreCLITests.makeStore(rows: 3)
        let plist = ArchivistProcess.fixture("rust-plist-xml.plist")
        for (input, words) in [(Self.jpeg, "not a property list: JPEG image, 20 bytes"), (Self.truncated, "truncated: the file ends at byte 200;"),
                               (store.path, "not a property list: SQLite database, "), (Self.empty, "empty input: the file has no bytes")] {
            let r = try ArchivistProcess.run(["diff", plist, input])
            #expect(r.status == 2, "diff(1)'s trouble status")
            #expect(r.err.hasPrefix("archivist: \(input): ") && r.err.contains(words), "\(r.err)")
            #expect(r.err.split(separator: "\n").count == 1)
        }
    }

    @Test func thePlutilDropInNamesWhatItWasGivenInPlutilsForm() throws {
        let store = try StoreCLITests.makeStore(rows: 3)
        for command in [["-lint"], ["-p"], ["-convert", "xml1", "-o", "-"], ["-extract", "a", "raw"]] {
            let jpeg = try ArchivistProcess.run(["plutil"] + command + [Self.jpeg])
            #expect(jpeg.status == 1, "\(command)")
            #expect(jpeg.err.hasPrefix("\(Self.jpeg): "), "\(command): \(jpeg.err)")
            #expect(jpeg.err.contains("not a property list: JPEG image, 20 bytes"), "\(command): \(jpeg.err)")
            let cut = try ArchivistProcess.run(["plutil"] + command + [Self.truncated])
            #expect(cut.err.contains("truncated: the file ends at byte 200;"), "\(command): \(cut.err)")
            let sqlite = try ArchivistProcess.run(["plutil"] + command + [store.path])
            #expect(sqlite.err.contains("SQLite database"), "\(command): \(sqlite.err)")
            #expect(!sqlite.err.contains("UTF-8 byte 0xFB"), "\(command): \(sqlite.err)")
        }
    }

    @Test func modelNamesWhatItWasGivenInstead() throws {
        let jpeg = try ArchivistProcess.run(["model", Self.jpeg])
        #expect(jpeg.status == 1)
        #expect(jpeg.err == "archivist: \(Self.jpeg): not a model: JPEG image, 20 bytes\n", "\(jpeg.err)")
        let empty = try ArchivistProcess.run(["model", Self.empty])
        #expect(empty.err == "archivist: \(Self.empty): not a model: empty file\n", "\(empty.err)")
        let cut = try ArchivistProcess.run(["model", Self.truncated])
        #expect(cut.err.contains("truncated: the file ends at byte 200;"), "\(cut.err)")
    }

    @Test func storeVerbsNameWhatTheyWereGivenInstead() throws {
        let dryRun = ["--attribute", "BowTie.tintColor", "--to", "json", "--dry-run"]
        for verb in [["scan"], ["migrate"] + dryRun, ["codegen", "--attribute", "BowTie.tintColor"]] {
            let jpeg = try ArchivistProcess.run([verb[0], Self.jpeg] + verb.dropFirst())
            #expect(jpeg.status == 1)
            #expect(jpeg.err == "archivist: \(Self.jpeg): not an SQLite database: JPEG image, 20 bytes\n", "\(verb): \(jpeg.err)")
            let plist = try ArchivistProcess.run([verb[0], Self.truncated] + verb.dropFirst())
            #expect(plist.err.contains("not an SQLite database: a binary property list; read it with `archivist print`"), "\(plist.err)")
            let empty = try ArchivistProcess.run([verb[0], Self.empty] + verb.dropFirst())
            #expect(empty.err == "archivist: \(Self.empty): not an SQLite database: empty file\n", "\(empty.err)")
        }
        let xml = try ArchivistProcess.run(["scan", ArchivistProcess.fixture("rust-plist-xml.plist")])
        #expect(xml.err.contains("not an SQLite database: an XML property list; read it with `archivist print`"), "\(xml.err)")
    }

    @Test func codegenNamesAFileThatHoldsNoValueToDecode() throws {
        let jpeg = try ArchivistProcess.run(["codegen", Self.jpeg])
        #expect(jpeg.status == 1)
        #expect(jpeg.err == "archivist: \(Self.jpeg): not a keyed archive, JSON or property list: JPEG image, 20 bytes\n", "\(jpeg.err)")
        let empty = try ArchivistProcess.run(["codegen", Self.empty])
        #expect(empty.err == "archivist: \(Self.empty): empty input: the file has no bytes\n", "\(empty.err)")
        let cut = try ArchivistProcess.run(["codegen", Self.truncated])
        #expect(cut.err.contains("truncated: the file ends at byte 200;"), "\(cut.err)")
        let store = try StoreCLITests.makeStore(rows: 3)
        let sqlite = try ArchivistProcess.run(["codegen", store.path])
        #expect(sqlite.status == 1)
        #expect(sqlite.err.contains("not a keyed archive, JSON or property list: SQLite database,"), "\(sqlite.err)")
        #expect(sqlite.err.contains("name the attribute to read with --attribute Entity.attribute"), "\(sqlite.err)")
        #expect(sqlite.out.isEmpty)
    }

    /// An archive whose `$top` holds several keys and none is `root`, as CloudKit's
    /// `encodeSystemFields(with:)` writes them (the system fields in Notes' store); hand-written.
    static let rootless: String = {
        let path = ArchivistProcess.temporaryFile("system-fields.plist")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>$archiver</key><string>NSKeyedArchiver</string><key>$version</key><integer>100000</integer>
            <key>$top</key><dict>
            <key>RecordType</key><dict><key>CF$UID</key><integer>1</integer></dict>
            <key>ETag</key><dict><key>CF$UID</key><integer>2</integer></dict>
            </dict>
            <key>$objects</key><array><string>$null</string><string>Note</string><string>kq3</string></array>
            </dict></plist>
            """
        try? Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }()

    @Test func anArchiveWithoutARootPointsToTopOnlyFromVerbsThatHaveIt() throws {
        let unarchive = try ArchivistProcess.run(["unarchive", Self.rootless, "--to", "json"])
        #expect(unarchive.status == 1)
        #expect(unarchive.err == "archivist: \(Self.rootless): the archive has no root object ($top has: RecordType, ETag); choose one with --top\n", "\(unarchive.err)")
        let chosen = try ArchivistProcess.run(["unarchive", Self.rootless, "--to", "json", "--top", "ETag"])
        #expect(chosen.status == 0, "\(chosen.err)")
        #expect(chosen.out.contains("kq3"))
        let missing = try ArchivistProcess.run(["unarchive", Self.rootless, "--to", "json", "--top", "Etag"])
        #expect(missing.err.hasSuffix("; --top Etag names none of them\n"), "\(missing.err)")
        for verb in [["codegen", Self.rootless], ["get", "--archive", Self.rootless, ".x"], ["type", "--archive", Self.rootless, ".x"]] {
            let r = try ArchivistProcess.run(verb)
            #expect(r.status == 1, "\(verb)")
            #expect(r.err.contains("the archive has no root object ($top has: RecordType, ETag)"), "\(verb): \(r.err)")
            #expect(!r.err.contains("--top"), "\(verb) has no --top: \(r.err)")
        }
    }

    @Test func aRealJSONCannotHoldIsRefusedNamingTheFlagAsTyped() throws {
        let path = ArchivistProcess.temporaryFile("nan.plist")
        try Data("<plist><dict><key>x</key><real>nan</real></dict></plist>".utf8).write(to: URL(fileURLWithPath: path))
        let r = try ArchivistProcess.run(["convert", path, "--to", "json"])
        #expect(r.status == 1)
        #expect(r.err.contains("--non-conforming-floats"), "\(r.err)")
        #expect(!r.err.contains("Strategy"), "\(r.err)")
        let strings = try ArchivistProcess.run(["convert", path, "--to", "json", "--non-conforming-floats", "inf,-inf,nan"])
        #expect(strings.out == #"{"x":"nan"}"#)
    }

    @Test func anUnknownVerbSuggestsTheNearestOne() throws {
        let typo = try ArchivistProcess.run(["pritn", "x.plist"])
        #expect(typo.status == 64)
        #expect(typo.err.hasPrefix("archivist: unknown verb 'pritn'; did you mean 'print'?"), "\(typo.err)")
        let prefix = try ArchivistProcess.run(["mig"])
        #expect(prefix.err.hasPrefix("archivist: unknown verb 'mig'; did you mean 'migrate'?"))
        let nothing = try ArchivistProcess.run(["xyzzy"])
        #expect(nothing.status == 64)
        #expect(nothing.err.hasPrefix("archivist: unknown verb 'xyzzy' (verbs: print, lint"), "\(nothing.err)")
    }

    /// The first word is checked against the verbs only as far as it (`VerbSuggestion.isVerb`):
    /// `help`, the first verb and the last one all pass through to their commands.
    @Test func everyVerbAndHelpPassTheFirstWordCheck() throws {
        for arguments in [["help"], ["print", "--help"], ["sweep", "--help"]] {
            let r = try ArchivistProcess.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.err)")
            #expect(!r.err.contains("unknown verb"), "\(arguments): \(r.err)")
            #expect(r.out.contains("USAGE"), "\(arguments): \(r.out)")
        }
    }

    // MARK: Duplicate keys

    /// `{a: 1, b: 5, a: 2}` with the repeat on line 3, in each text format.
    static let duplicates: [(name: String, text: String, column: Int)] = [
        ("dup.json", "{\n  \"a\": 1, \"b\": 5,\n  \"a\": 2\n}\n", 3),
        ("dup.strings", "{\n  a = 1; b = 5;\n  a = 2;\n}\n", 3),
        ("dup.plist", "<plist version=\"1.0\"><dict>\n<key>a</key><integer>1</integer><key>b</key><integer>5</integer>\n<key>a</key><integer>2</integer>\n</dict></plist>\n", 6),   // the key's text, after <key>
    ]

    @Test func lintWarnsAboutARepeatedKeyWithItsLineAndColumnAndStrictFails() throws {
        for document in Self.duplicates {
            let path = ArchivistProcess.temporaryFile(document.name)
            try Data(document.text.utf8).write(to: URL(fileURLWithPath: path))
            let r = try ArchivistProcess.run(["lint", path])
            #expect(r.status == 0, "\(document.name)")
            #expect(r.out.hasSuffix(", 1 warning\n"), "\(r.out)")
            #expect(r.err.hasPrefix("archivist: \(path): warning: duplicate key \"a\" at line 3, column \(document.column) in root (first at line 2, column \(document.column))"),
                    "\(document.name): \(r.err)")
            let strict = try ArchivistProcess.run(["lint", "--strict", path])
            #expect(strict.status == 1, "\(document.name)")
            let json = try ArchivistProcess.run(["lint", "--format", "json", path])
            let records = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
            let warnings = try #require(records.first?["warnings"] as? [[String: Any]])
            #expect(warnings.first?["kind"] as? String == "duplicateKey")
            #expect(warnings.first?["line"] as? Int == 3)
        }
    }

    @Test func conversionKeepsTheLaterValueAsApplesReadersDo() throws {
        for document in Self.duplicates {
            let path = ArchivistProcess.temporaryFile(document.name)
            try Data(document.text.utf8).write(to: URL(fileURLWithPath: path))
            let r = try ArchivistProcess.run(["convert", path, "--to", "json"])
            #expect(r.status == 0)
            let expected = document.name.hasSuffix(".strings") ? #"{"a":"2","b":"5"}"# : #"{"a":2,"b":5}"#
            #expect(r.out == expected, "\(document.name): \(r.out)")
            #expect(r.err.contains("warning: duplicate key \"a\""), "the conversion says so too")
        }
    }

    // MARK: Allow-list options and files

    @Test func allowListOptionsTakeFilesBeforeOrAfterThem() throws {
        let box = PayloadCLITests.archive("configuration-box-json.bplist")
        for arguments in [["check", "--only", "MyApp.ConfigurationBox,NSData", box],
                          ["check", "--only", "MyApp.ConfigurationBox", "--only", "NSData", box],
                          ["check", box, "--only", "MyApp.ConfigurationBox,NSData"],
                          ["unarchive", "--only", "MyApp.ConfigurationBox,NSData", box, "--to", "json"],
                          ["check", "--allow", "UIColor,NSData", PayloadCLITests.archive("uicolor-tint.bplist")]] {
            let r = try ArchivistProcess.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.err)")
        }
        let spaced = try ArchivistProcess.run(["check", box, "--only", "MyApp.ConfigurationBox", "NSData"])
        #expect(spaced.status == 1)
        #expect(spaced.err.contains("NSData: no such file (--only and --allow take one class each time, or several separated by commas"), "\(spaced.err)")
    }

    // MARK: Plain SQLite files

    @Test func aPlainSQLiteTableNamesRowsByItsOwnKeyAndCountsInTheSingular() throws {
        let path = ArchivistProcess.temporaryFile("plain.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body BLOB)")
            try db.execute(sql: "INSERT INTO notes (id, body) VALUES (7, ?)", arguments: [Data("bplist00 broken".utf8)])
        }
        try queue.close()
        let r = try ArchivistProcess.run(["scan", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("SQLite database (not a Core Data store): 1 table\n"), "\(r.out)")
        #expect(r.out.contains("notes: 1 row\n"), "\(r.out)")
        #expect(r.out.contains("id 7: "), "\(r.out)")
        #expect(!r.out.contains("Z_PK"), "\(r.out)")
        let json = try ArchivistProcess.run(["scan", path, "--format", "json"])
        #expect(json.out.contains(#""keyColumn" : "id""#), "\(json.out)")
        // codegen and migrate name the row alike.
        let codegen = try ArchivistProcess.run(["codegen", path, "--attribute", "notes.body"])
        #expect(codegen.err.contains("1 value is left out, such as id 7: "), "\(codegen.err)")
        #expect(codegen.err.contains("notes.body holds no value to infer a type from (0 values, 1 left out)"), "\(codegen.err)")
        let dryRun = try ArchivistProcess.run(["migrate", path, "--attribute", "notes.body", "--to", "json", "--dry-run"])
        #expect(dryRun.out.contains("failed 1 of 1 row in"), "\(dryRun.out)")
        #expect(dryRun.out.contains("  id 7: "), "\(dryRun.out)")
        #expect(!(codegen.err + dryRun.out).contains("Z_PK"))
    }
}
