import Foundation
import PropertyList
import Testing

/// `archivist inspect`, run as a user runs it.
@Suite struct InspectCLITests {
    /// Writes an archive whose `$objects` are `$null` then `objects`, and returns its path.
    func archiveFile(_ objects: [PropertyListValue], top: [(String, UInt64)] = [("root", 1)]) throws -> String {
        let plist: PropertyListValue = .dictionary(PropertyListDictionary([
            (.string("$version"), .integer(PropertyListInteger(100_000))),
            (.string("$archiver"), .string("NSKeyedArchiver")),
            (.string("$top"), .dictionary(PropertyListDictionary(top.map { (.string($0.0), .uid($0.1)) }))),
            (.string("$objects"), .array(["$null"] + objects)),
        ]))
        let path = ArchivistProcess.temporaryFile("archive.plist")
        try BinaryPropertyListWriter().write(plist).write(to: URL(fileURLWithPath: path))
        return path
    }

    func object(_ classUID: UInt64, _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        .dictionary(PropertyListDictionary(fields.map { (.string($0.0), $0.1) } + [(.string("$class"), .uid(classUID))]))
    }

    func classDictionary(_ name: String) -> PropertyListValue {
        ["$classname": .string(name), "$classes": [.string(name), "NSObject"]]
    }

    @Test func helpListsInspect() throws {
        let r = try ArchivistProcess.run(["--help"])
        #expect(r.out.contains("inspect"))
        let help = try ArchivistProcess.run(["inspect", "--help"])
        #expect(help.status == 0)
        for option in ["--format", "--expand-nested", "--top", "--max-depth"] { #expect(help.out.contains(option)) }
    }

    @Test func inspectPrintsTheObjectTreeAndExits0() throws {
        let r = try ArchivistProcess.run(["inspect", ArchivistProcess.fixture("NSKeyedUnarchiver-ComplexTest.plist")])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("root = #1 NSDictionary 4 entries\n"))
        #expect(r.out.contains("\"string\" => → #9 NSString \"hello\""))
        #expect(r.out.contains("\"url\" => #16 NSURL https://www.swift.org/index.xml"))
        #expect(r.out.contains("17 objects, 7 classes"))
        #expect(!r.out.contains("\u{1B}["), "no colors when stdout is a pipe")
        #expect(r.err.isEmpty)
    }

    @Test func standardInputCanBeInspected() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ArchivistProcess.fixture("NSKeyedUnarchiver-URLTest.plist")))
        let r = try ArchivistProcess.run(["inspect", "-"], stdin: bytes)
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("root = #1 NSURL https://www.example.com/foo.xml\n"))
    }

    @Test func aCycleIsMarkedAndTheCommandEnds() throws {
        let path = try archiveFile([object(3, [("next", .uid(1)), ("name", .uid(2))]), "loop", classDictionary("Node")])
        let r = try ArchivistProcess.run(["inspect", path])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("root = #1 Node\n  next = ↺ #1 Node (cycle)\n  name = #2 NSString \"loop\"\n"))
    }

    @Test func aChainFiftyThousandObjectsDeepPrintsInEveryFormat() throws {
        let count = 50_000
        var objects: [PropertyListValue] = []
        for i in 1...count { objects.append(object(UInt64(count + 1), [("next", i == count ? .uid(0) : .uid(UInt64(i + 1)))])) }
        objects.append(classDictionary("Node"))
        let path = try archiveFile(objects)
        for format in ["text", "json", "dot"] {
            let r = try ArchivistProcess.run(["inspect", path, "--format", format])
            #expect(r.status == 0, "\(format): \(r.err)")
        }
    }

    @Test func jsonOutputParsesAndListsEveryObjectOnce() throws {
        let r = try ArchivistProcess.run(["inspect", ArchivistProcess.fixture("NSAttributedString.archive"), "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let uids = (json["objects"] as? [[String: Any]] ?? []).compactMap { $0["uid"] as? Int }
        #expect(uids.count == 14)
        #expect(Set(uids).count == uids.count)
        let root = (json["objects"] as? [[String: Any]])?.first
        #expect(root?["kind"] as? String == "attributedString")
    }

    @Test func jsonIsCompactInAPipeIndentedWithPrettyAndSpelledOutWithAllMembers() throws {
        let path = ArchivistProcess.fixture("NSKeyedUnarchiver-URLTest.plist")
        let compact = try ArchivistProcess.run(["inspect", path, "--format", "json"])
        #expect(compact.status == 0)
        #expect(compact.out.hasPrefix("{\"archiver\":\"NSKeyedArchiver\",\"version\":100000,"))
        #expect(!compact.out.contains("\"summary\"") && !compact.out.contains("\"inline\""))
        let pretty = try ArchivistProcess.run(["inspect", path, "--format", "json", "--pretty"])
        #expect(pretty.out.hasPrefix("{\n  \"archiver\" : \"NSKeyedArchiver\","))
        #expect(!pretty.out.contains("\"summary\""))
        let all = try ArchivistProcess.run(["inspect", path, "--format", "json", "--all-members"])
        #expect(all.out.contains("\"summary\":") && all.out.contains("\"inline\":false"))
        // The same objects either way.
        let a = try #require(try JSONSerialization.jsonObject(with: compact.stdout) as? [String: Any])
        let b = try #require(try JSONSerialization.jsonObject(with: all.stdout) as? [String: Any])
        #expect((a["objects"] as? [[String: Any]])?.map { $0["uid"] as? Int } == (b["objects"] as? [[String: Any]])?.map { $0["uid"] as? Int })
    }

    @Test func dotOutputIsADigraph() throws {
        let r = try ArchivistProcess.run(["inspect", ArchivistProcess.fixture("NSKeyedUnarchiver-URLTest.plist"), "--format", "dot"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("digraph archive {\n"))
        #expect(r.out.contains("  o1 -> o2 [label=\"NS.base\"];"))
        #expect(r.out.hasSuffix("}\n"))
    }

    @Test func expandNestedShowsAPlistHeldInData() throws {
        let inner = BinaryPropertyListWriter().write(["theme": "dark"])
        let path = try archiveFile([object(3, [("settings", .uid(2))]), .data(inner), classDictionary("Prefs")])
        let labelled = try ArchivistProcess.run(["inspect", path])
        #expect(labelled.out.contains("settings = #2 NSData \(inner.count) bytes, binary property list\n"))
        #expect(!labelled.out.contains("theme"))
        let expanded = try ArchivistProcess.run(["inspect", path, "--expand-nested"])
        #expect(expanded.out.contains("binary property list\n    {\n      \"theme\" => \"dark\"\n    }\n"))
        let json = try ArchivistProcess.run(["inspect", path, "--expand-nested", "--format", "json"])
        #expect(json.out.contains("\"theme\""))
    }

    @Test func topChoosesTheRootAmongTopEntries() throws {
        let path = try archiveFile(["first", "second"], top: [("root", 1), ("other", 2)])
        let r = try ArchivistProcess.run(["inspect", path, "--top", "other"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("other = #2 NSString \"second\"\nroot = #1 NSString \"first\"\n"))
        let missing = try ArchivistProcess.run(["inspect", path, "--top", "nope"])
        #expect(missing.status == 1)
        #expect(missing.err == "archivist: \(path): $top has no entry \"nope\" (it has: root, other)\n")
    }

    @Test func aPlistThatIsNotAnArchiveExits1WithOneLine() throws {
        let path = ArchivistProcess.fixture("rust-plist-xml.plist")
        let r = try ArchivistProcess.run(["inspect", path, "--format", "json"])
        #expect(r.status == 1)
        #expect(r.out.isEmpty)
        #expect(r.err.hasPrefix("archivist: \(path): not a keyed archive"), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
    }

    @Test func aReferenceOutOfRangeExits1NamingTheObject() throws {
        let path = try archiveFile([object(2, [("title", .uid(99))]), classDictionary("Thing")])
        let r = try ArchivistProcess.run(["inspect", path])
        #expect(r.status == 1)
        #expect(r.err.contains("UID 99"))
        #expect(r.err.contains("object #1"))
    }

    @Test func anUnreadableFileExits1() throws {
        let path = ArchivistProcess.temporaryFile("truncated.plist")
        try Data("bplist00\u{0}".utf8).write(to: URL(fileURLWithPath: path))
        let r = try ArchivistProcess.run(["inspect", path])
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("archivist: \(path): "))
        let missing = try ArchivistProcess.run(["inspect", "/no/such/file.plist"])
        #expect(missing.status == 1)
        #expect(missing.err == "archivist: /no/such/file.plist: no such file\n")
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let r = try ArchivistProcess.run(["inspect", ArchivistProcess.fixture("NSKeyedUnarchiver-URLTest.plist"), "--format", "yaml"])
        #expect(r.status == 64)
    }
}
