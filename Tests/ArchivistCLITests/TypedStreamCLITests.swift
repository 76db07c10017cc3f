import Foundation
import KeyedArchive
import PropertyList
import Testing
import TypedStreamFixtures

/// Every verb that takes a keyed archive takes an NSArchiver typedstream, found by its content:
/// in a file, on standard input and in a plist's data.
struct TypedStreamCLITests {
    typealias F = FoundationTypedStreamObjects

    /// The 15 Apple II colors as AppKit's NSColorList wrote them (Fixtures/typedstream, MIT).
    static let colorList = ArchivistProcess.repository.appendingPathComponent("Fixtures/typedstream/apple-ii.clr").path
    /// The same kind of list, keyed (SwiftGen's colors.clr, MIT).
    static let keyedColorList = ArchivistProcess.repository.appendingPathComponent("Fixtures/typedstream/swiftgen-colors-keyed.clr").path

    /// An NSColor as `+[NSArchiver archivedDataWithRootObject:]` writes it (the Cocoa bindings'
    /// `NSUnarchiveFromData` transformer in preferences).
    static var colorBlob: Data {
        var writer = TypedStreamWriter()
        writer.writeRoot(F.color(kind: 1, components: [0.176, 0.165, 0.51, 1]))
        return writer.data
    }

    static func temporary(_ name: String, _ data: Data) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-ts-\(UUID().uuidString)-\(name)")
        try data.write(to: url)
        return url.path
    }

    @Test func inspectShowsTheObjectsOfATypedStreamFromAFileOrStandardInput() throws {
        let r = try ArchivistProcess.run(["inspect", Self.colorList])
        #expect(r.status == 0)
        #expect(r.out.contains("NSKeys = #"))
        #expect(r.out.contains("NSColor"))
        let piped = try ArchivistProcess.run(["inspect", "-"], stdin: Self.colorBlob)
        #expect(piped.status == 0)
        #expect(piped.out.hasPrefix("root = #1 NSColor rgba(0.176, 0.165, 0.51, 1)"))
        let json = try ArchivistProcess.run(["inspect", "--format", "json", "-"], stdin: Self.colorBlob)
        let document = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect(document?["archiver"] as? String == "NSArchiver")
        #expect(document?["version"] as? Int == 1000)
        for format in ["dot", "html"] {
            let other = try ArchivistProcess.run(["inspect", "--format", format, Self.colorList])
            #expect(other.status == 0, "\(format): \(other.err)")
            #expect(other.out.contains("NSColor"), "\(format)")
        }
    }

    @Test func inspectShowsTheStreamItselfClassesWithVersionsAndEveryGroup() throws {
        let text = try ArchivistProcess.run(["inspect", Self.colorList])
        #expect(text.out.contains("30 objects, 2 classes in an NSArchiver typedstream (little-endian, system version 1000)"), "\(text.out)")
        #expect(text.out.contains("NSString v1  15"))
        let compact = try ArchivistProcess.run(["inspect", "--format", "json", Self.colorList])
        let member = try #require((try JSONSerialization.jsonObject(with: compact.stdout) as? [String: Any])?["typedStream"] as? [String: Any])
        #expect(member["byteOrder"] as? String == "little")
        #expect((member["classes"] as? [[String: Any]])?.map { $0["name"] as? String } == ["NSColor", "NSObject", "NSString"])
        #expect(member["objects"] == nil, "groups only with --all-members")
        let full = try ArchivistProcess.run(["inspect", "--format", "json", "--all-members", Self.colorList])
        let all = try #require((try JSONSerialization.jsonObject(with: full.stdout) as? [String: Any])?["typedStream"] as? [String: Any])
        let contents = try #require(all["contents"] as? [[String: Any]])
        #expect(contents.count == 17, "version, name and count, then 15 pairs")
        #expect(contents[1]["encoding"] as? String == "@i")
        let objects = try #require(all["objects"] as? [[String: Any]])
        #expect(objects.count == 30)
        #expect((objects[0]["groups"] as? [[String: Any]])?.map { $0["encoding"] as? String } == ["c", "ffff"])
    }

    @Test func checkRefusesATypedStreamWhateverItsClassesAndSaysTheWayForward() throws {
        let r = try ArchivistProcess.run(["check", "--allow", "NSColor", "-"], stdin: Self.colorBlob)
        #expect(r.status == 1)
        #expect(r.out.contains("refused: an NSArchiver typedstream (little-endian, system version 1000)"))
        #expect(r.out.contains("every secure unarchiver refuse"))
        #expect(r.out.contains("rewrite - --to keyed"))
        #expect(!r.out.contains("would still need"))
        let json = try ArchivistProcess.run(["check", "--format", "json", "-"], stdin: Self.colorBlob)
        let records = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
        #expect(records?.first?["accepted"] as? Bool == false)
        #expect(records?.first?["archiver"] as? String == "NSArchiver")
        #expect(records?.first?["suggestedAllow"] as? [String] == ["NSColor"])
    }

    @Test func unarchiveGivesTheSamePayloadAsTheKeyedArchiveOfTheSameColors() throws {
        let r = try ArchivistProcess.run(["unarchive", "--allow", "NSColor", "-", "--to", "json"], stdin: Self.colorBlob)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix(#"{"red":0.175999999,"green":0.1650000066"#))
        let refused = try ArchivistProcess.run(["unarchive", "-", "--to", "json"], stdin: Self.colorBlob)
        #expect(refused.status == 1)
        #expect(refused.err.contains("--allow NSColor"))
        let list = try ArchivistProcess.run(["unarchive", "--no-check", "--top", "NSColors", Self.colorList, "--to", "json"])
        #expect(list.status == 0)
        #expect(list.out.hasPrefix(#"[{"red":0,"green":0,"blue":0,"alpha":1,"colorSpace":"calibratedRGB"}"#))
    }

    @Test func rewriteToKeyedWritesAnArchiveThatEveryVerbReadsAsKeyed() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-ts-\(UUID().uuidString).bplist").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try ArchivistProcess.run(["rewrite", Self.colorList, "--to", "keyed", "-o", out])
        #expect(r.status == 0, "\(r.err)")
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(written.starts(with: Array("bplist00".utf8)))
        let check = try ArchivistProcess.run(["check", "--allow", "NSColor", out])
        #expect(check.status == 0, "\(check.out)")
        let xml = try ArchivistProcess.run(["rewrite", "-", "--to", "xml"], stdin: Self.colorBlob)
        #expect(xml.out.contains("<string>NSKeyedArchiver</string>"))
        #expect(xml.out.contains("<key>NSRGB</key>"))
        // The same objects, whichever archiver wrote them.
        let same = try ArchivistProcess.run(["diff", Self.colorList, out])
        #expect(same.status == 0, "\(same.out)")
    }

    @Test func printShowsTheKeyedArchiveOfTheStreamAndDiffComparesObjects() throws {
        let printed = try ArchivistProcess.run(["print", Self.colorList])
        #expect(printed.status == 0)
        #expect(printed.out.contains(#""$archiver" => "NSKeyedArchiver""#))
        let diff = try ArchivistProcess.run(["diff", Self.colorList, Self.keyedColorList])
        #expect(diff.status == 1)
        #expect(diff.out.contains("~ $top.NSKeys[1]: \"#808080\" → \"ArticleBody\""))
    }

    @Test func lintSaysATypedStreamIsNoPropertyListAndNamesTheVerbsThatReadIt() throws {
        let r = try ArchivistProcess.run(["lint", Self.colorList])
        #expect(r.status == 1)
        #expect(r.err.contains("not a property list: NSArchiver typedstream, 576 bytes; `archivist inspect`, `unarchive` and `rewrite --to keyed` read it"))
    }

    @Test func sweepFindsATypedStreamInAPreferencesPlistsData() throws {
        // Preferences bound through NSUnarchiveFromData: an NSColor as typedstream <data>.
        var prefs = PropertyListDictionary()
        prefs.append(key: "HighlightColor", value: .data(Self.colorBlob))
        let path = try Self.temporary("com.example.editor.plist", try BinaryPropertyListWriter().write(.dictionary(prefs)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try ArchivistProcess.run(["sweep", path, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.err)")
        let records = r.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let color = try #require(records.first { ($0["path"] as? String)?.hasSuffix("/root.HighlightColor") == true }, "\(r.out)")
        #expect(color["kind"] as? String == "typedStream")
        #expect(color["verdict"] as? String == "refused")
        #expect((color["summary"] as? String)?.hasPrefix("NSColor rgba(0.176, 0.165, 0.51, 1)") == true, "\(color)")
    }

    @Test func aTypedStreamInAPlistsDataIsANestedDocument() throws {
        // A keyed archive holding an NSColor as typedstream data: expanded in place.
        var builder = KeyedArchiveBuilder()
        let holder = builder.object("Preferences", fields: [ArchivedField(key: "color", value: builder.data(Self.colorBlob))])
        let archivePath = try Self.temporary("holder.bplist", try KeyedArchiveWriter().write(builder.archive(root: holder)))
        defer { try? FileManager.default.removeItem(atPath: archivePath) }
        let r = try ArchivistProcess.run(["inspect", "--expand-nested", archivePath])
        #expect(r.status == 0)
        #expect(r.out.contains("NSArchiver typedstream"))
        #expect(r.out.contains("NSColor rgba(0.176, 0.165, 0.51, 1)"))
        let payload = try ArchivistProcess.run(["unarchive", "--no-check", "--expand-nested", archivePath, "--to", "json"])
        #expect(payload.out.contains(#""color":{"red":0.175999999,"#), "\(payload.out)")
    }
}
