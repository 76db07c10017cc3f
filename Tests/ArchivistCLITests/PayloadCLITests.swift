import Foundation
import PropertyList
import Testing

/// `check`, `unarchive` and `archive`, run as a user runs them, on the fixture blobs.
@Suite struct PayloadCLITests {
    static func archive(_ name: String) -> String {
        ArchivistProcess.repository.appendingPathComponent("Fixtures/archives/\(name)").path
    }

    struct Color: Codable, Equatable {
        var red: Double
        var green: Double
        var blue: Double
        var alpha: Double
    }

    @Test func checkRefusesAUIColorTintWithTheClassPathAndTheFix() throws {
        let r = try ArchivistProcess.run(["check", Self.archive("uicolor-tint.bplist")])
        #expect(r.status == 1)
        #expect(r.out.contains("refused"))
        #expect(r.out.contains("UIColor #1 at root"))
        #expect(r.out.contains("--allow UIColor"))
        #expect(r.out.contains("super.allowedTopLevelClasses + [UIColor.self]"))
    }

    @Test func unarchiveRefusesAPayloadLargerThanMaxPayloadValues() throws {
        // The legacy [String] blob holds more than two values once mapped.
        let blob = Self.archive("legacy-string-array.bplist")
        let refused = try ArchivistProcess.run(["unarchive", "--to", "json", "--max-payload-values", "2", blob])
        #expect(refused.status == 1)
        #expect(refused.err.contains("the payload holds more than 2 values"), "\(refused.err)")
        #expect(refused.out.isEmpty)
        #expect(try ArchivistProcess.run(["unarchive", "--to", "json", blob]).status == 0)
        #expect(try ArchivistProcess.run(["unarchive", "--to", "json", "--max-payload-values", "0", blob]).status == 64)
    }

    @Test func checkAcceptsWithAllowAndExitsZero() throws {
        let r = try ArchivistProcess.run(["check", "--allow", "UIColor", Self.archive("uicolor-tint.bplist"), Self.archive("legacy-string-array.bplist")])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.components(separatedBy: "accepted").count == 3)
    }

    @Test func checkSpeaksJSONWithEveryViolation() throws {
        let r = try ArchivistProcess.run(["check", "--format", "json", Self.archive("serializable-color-mangled.bplist")])
        #expect(r.status == 1)
        let records = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]]
        let violation = (records?.first?["violations"] as? [[String: Any]])?.first
        #expect(violation?["readableClass"] as? String == "Eventail.SerializableColor")
        #expect(violation?["class"] as? String == "_TtC8Eventail17SerializableColor")
        #expect(violation?["path"] as? String == "root")
        #expect(records?.first?["suggestedAllow"] as? [String] == ["Eventail.SerializableColor"])
    }

    @Test func checkWithOnlyReplacesTheDefaultList() throws {
        let r = try ArchivistProcess.run(["check", Self.archive("configuration-box-json.bplist"), "--only", "MyApp.ConfigurationBox", "--only", "NSData"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let refused = try ArchivistProcess.run(["check", Self.archive("legacy-string-array.bplist"), "--only", "NSString"])
        #expect(refused.status == 1)
        #expect(refused.out.contains("NSArray"))
    }

    @Test(.enabled(if: ArchivistProcess.hasTerminal, "needs script(1) to give a terminal"))
    func jsonEndsItsLineOnATerminalAndIsExactInAPipe() throws {
        let blob = Self.archive("uicolor-tint.bplist")
        let piped = try ArchivistProcess.run(["unarchive", "--allow", "UIColor", "--to", "json", blob])
        #expect(piped.stdout.last == UInt8(ascii: "}"))
        let text = try ArchivistProcess.runOnTerminal(["unarchive", "--allow", "UIColor", "--to", "json", blob])
        // The terminal turns the line break into CR LF.
        #expect(text.hasSuffix("}\r\n"), "\(text.debugDescription)")
    }

    @Test func checkSaysWhatANonArchiveIs() throws {
        let r = try ArchivistProcess.run(["check", Self.archive("photo.png")])
        #expect(r.status == 1)
        #expect(r.err.contains("not a keyed archive: PNG image 2×1"))
        // A PropertyListEncoder payload is a plist, but no archive: said once, with the reason.
        let plist = try ArchivistProcess.run(["check", Self.archive("user-details-codable.bplist")])
        #expect(plist.status == 1)
        #expect(plist.err.hasSuffix("not a keyed archive: a plain binary property list (no $archiver)\n"), "\(plist.err)")
    }

    @Test func unarchiveRefusesARejectedBlobAndNamesTheFix() throws {
        let r = try ArchivistProcess.run(["unarchive", Self.archive("uicolor-tint.bplist"), "--to", "json"])
        #expect(r.status == 1)
        #expect(r.out.isEmpty)
        #expect(r.err.contains("--allow UIColor"))
    }

    @Test func unarchiveToJSONIntoAFileWritesWhatItWritesToStandardOutputAndNothingOnAFailure() throws {
        // The object table's walk takes some of these and leaves others to the decoder (a URL
        // with its base, classes it does not describe); into a file, its JSON is handed on as
        // it is written.
        for (name, flags) in [("legacy-string-array.bplist", []), ("relative-url.bplist", []), ("note-with-attachments.bplist", ["--break-cycles"]),
                              ("user-details-nscoding.bplist", []), ("configuration-box-json.bplist", ["--sorted-keys", "--pretty"])] {
            let out = ArchivistProcess.temporaryFile("payload.json")
            let toFile = try ArchivistProcess.run(["unarchive", "--no-check"] + flags + [Self.archive(name), "--to", "json", "-o", out])
            let toStandardOutput = try ArchivistProcess.run(["unarchive", "--no-check"] + flags + [Self.archive(name), "--to", "json"])
            #expect(toFile.status == 0 && toStandardOutput.status == 0, "\(name): \(toFile.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == toStandardOutput.stdout, "\(name)")
        }
        // A refusal and a cycle leave no file.
        for (name, flags) in [("uicolor-tint.bplist", [String]()), ("cycle-self-reference.bplist", ["--no-check"])] {
            let out = ArchivistProcess.temporaryFile("refused.json")
            let r = try ArchivistProcess.run(["unarchive"] + flags + [Self.archive(name), "--to", "json", "-o", out])
            #expect(r.status == 1, "\(name)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(name)")
        }
    }

    @Test func unarchiveToJSONAndToBinaryDecodeIntoTheColorStruct() throws {
        let json = try ArchivistProcess.run(["unarchive", "--allow", "UIColor", Self.archive("uicolor-tint.bplist"), "--to", "json"])
        #expect(json.status == 0, "\(json.err)")
        let fromJSON = try JSONDecoder().decode(Color.self, from: json.stdout)
        #expect(fromJSON == Color(red: 0.176, green: 0.165, blue: 0.51, alpha: 1))
        let out = ArchivistProcess.temporaryFile("color.bplist")
        let binary = try ArchivistProcess.run(["unarchive", "--allow", "UIColor", Self.archive("uicolor-tint.bplist"), "--to", "binary", "-o", out])
        #expect(binary.status == 0, "\(binary.err)")
        let fromPlist = try PropertyListDecoder().decode(Color.self, from: try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(fromPlist == fromJSON)
    }

    @Test func unarchiveSelectsTheStructInsideABox() throws {
        struct Configuration: Codable, Equatable {
            var theme: String
            var fontSize: Int
            var showsBadges: Bool
            var accent: String
        }
        let r = try ArchivistProcess.run(["unarchive", Self.archive("configuration-box-json.bplist"), "--to", "json",
                                          "--expand-nested", "--select", ".unbox", "--only", "MyApp.ConfigurationBox,NSData"])
        #expect(r.status == 0, "\(r.err)")
        #expect(try JSONDecoder().decode(Configuration.self, from: r.stdout) == Configuration(theme: "dark", fontSize: 14, showsBadges: true, accent: "#FF6600"))
    }

    @Test func unarchiveRefusesACycleNamingThePathAndTheFlag() throws {
        for format in ["json", "xml", "binary"] {
            let r = try ArchivistProcess.run(["unarchive", "--no-check", Self.archive("cycle-self-reference.bplist"), "--to", format, "-o", "-"])
            #expect(r.status == 1)
            #expect(r.err.contains("root.next refers back to root"))
            #expect(r.err.hasSuffix("; --break-cycles writes it as a {\"$ref\": …} reference instead\n"))
        }
    }

    @Test func unarchiveBreakCyclesWritesReferencesInJSONAndInPropertyLists() throws {
        let blob = Self.archive("cycle-self-reference.bplist")
        let json = try ArchivistProcess.run(["unarchive", "--no-check", "--break-cycles", blob, "--to", "json"])
        #expect(json.status == 0, "\(json.err)")
        #expect(json.out == ##"{"name":"head","next":{"$ref":"#"}}"##)
        let sorted = try ArchivistProcess.run(["unarchive", "--no-check", "--break-cycles", blob, "--to", "json", "--sorted-keys", "--pretty"])
        #expect(sorted.out == "{\n  \"name\" : \"head\",\n  \"next\" : {\n    \"$ref\" : \"#\"\n  }\n}")
        for format in ["xml", "binary"] {
            let r = try ArchivistProcess.run(["unarchive", "--no-check", "--break-cycles", blob, "--to", format, "-o", "-"])
            #expect(r.status == 0, "\(r.err)")
            let read = try PropertyListReader().read(r.stdout)
            #expect(read.format.rawValue == format)
            #expect(read.value == ["name": "head", "next": ["$ref": "#"]])
        }
        // The owner's note is the root note; the attachment it shares is written twice in full.
        let note = try ArchivistProcess.run(["unarchive", "--no-check", "--break-cycles", Self.archive("note-with-attachments.bplist"), "--to", "json"])
        #expect(note.out.hasSuffix(##""pinned":{"fileName":"list.txt"},"owner":{"name":"Ada","note":{"$ref":"#"}}}"##))
        #expect(note.out.components(separatedBy: ##"{"fileName":"list.txt"}"##).count == 3)
    }

    @Test func unarchiveBreakCyclesPointsWithinASelectedPartAndRefusesAPartThatPointsOutside() throws {
        let blob = Self.archive("note-with-attachments.bplist")
        let owner = try ArchivistProcess.run(["unarchive", "--no-check", "--break-cycles", blob, "--to", "json", "--select", ".owner"])
        #expect(owner.status == 1)
        #expect(owner.err.contains("outside it; select a part that holds both ends"))
        let pinned = try ArchivistProcess.run(["unarchive", "--no-check", "--break-cycles", blob, "--to", "json", "--select", ".pinned"])
        #expect(pinned.out == ##"{"fileName":"list.txt"}"##)
    }

    @Test func unarchiveKeepsClassNamesWhenAsked() throws {
        let r = try ArchivistProcess.run(["unarchive", "--no-check", "--keep-class", Self.archive("user-details-nscoding.bplist"), "--to", "json"])
        #expect(r.status == 0)
        #expect(r.out == #"{"$class":"MyApp.UserDetails","eyeColor":"green","carsNumber":2}"#)
    }

    @Test func archiveBuildsAUIColorThatCheckAndUnarchiveReadBack() throws {
        let payload = ArchivistProcess.temporaryFile("color.json")
        try Data(#"{"red":0.25,"green":0.5,"blue":0.75,"alpha":1}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let blob = ArchivistProcess.temporaryFile("color.bplist")
        let r = try ArchivistProcess.run(["archive", payload, "--class", ".=UIColor", "-o", blob])
        #expect(r.status == 0, "\(r.err)")
        let inspect = try ArchivistProcess.run(["inspect", blob])
        #expect(inspect.out.contains("UIColor rgba(0.25, 0.5, 0.75, 1)"))
        let back = try ArchivistProcess.run(["unarchive", "--allow", "UIColor", blob, "--to", "json"])
        #expect(try JSONDecoder().decode(Color.self, from: back.stdout) == Color(red: 0.25, green: 0.5, blue: 0.75, alpha: 1))
    }

    @Test func archiveWritesFoundationClassesThatFoundationUnarchives() throws {
        let payload = ArchivistProcess.temporaryFile("list.json")
        try Data(#"{"names":["a","b"],"count":2,"site":"https://example.com/x"}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let blob = ArchivistProcess.temporaryFile("list.bplist")
        let r = try ArchivistProcess.run(["archive", payload, "--class", ".site=NSURL", "-o", blob])
        #expect(r.status == 0, "\(r.err)")
        let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSURL.self],
                                                            from: try Data(contentsOf: URL(fileURLWithPath: blob)))
        let d = object as? [String: Any]
        #expect(d?["names"] as? [String] == ["a", "b"])
        #expect((d?["count"] as? NSNumber)?.intValue == 2)
        #expect((d?["site"] as? URL)?.absoluteString == "https://example.com/x")
    }

    @Test func archiveRejectsAMalformedClassAssignmentAsAUsageError() throws {
        let r = try ArchivistProcess.run(["archive", "x.json", "--class", "UIColor"])
        #expect(r.status == 64)
    }

    @Test func archiveRefusesAClassThatDoesNotFitItsValue() throws {
        let payload = ArchivistProcess.temporaryFile("bad.json")
        try Data(#"{"red":"x"}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let r = try ArchivistProcess.run(["archive", payload, "--class", ".=UIColor"])
        #expect(r.status == 1)
        #expect(r.err.contains("UIColor at . needs an object with red, green, blue and alpha"))
    }
}
