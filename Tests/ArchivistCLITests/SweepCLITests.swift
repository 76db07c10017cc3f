import Foundation
import Testing

/// `archivist sweep` end to end, on the hand-built archives in Fixtures/archives.
@Suite struct SweepCLITests {
    static let archives = ArchivistProcess.repository.appendingPathComponent("Fixtures/archives").path

    static func records(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func intoAPipeEachItemIsOneJSONLineAndTheSummaryCloses() throws {
        let result = try ArchivistProcess.run(["sweep", Self.archives])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = try Self.records(result.out)
        let items = lines.dropLast()
        let summary = try #require(lines.last?["summary"] as? [String: Any])
        #expect(summary["items"] as? Int == items.count)
        // Ten files, one of them a PNG: nine archives and plists, and the UIColor archive held in
        // the note's data.
        #expect(items.count == 10)
        for item in items {
            for key in ["path", "kind", "format", "size"] { #expect(item[key] != nil, "\(key) in \(item)") }
        }
        let nested = try #require(items.first { ($0["path"] as? String)?.hasSuffix("note-with-attachments.bplist/root.attachments[1]") == true })
        #expect(nested["kind"] as? String == "keyedArchive")
        #expect(nested["classes"] as? [String: Int] == ["UIColor": 1])
        #expect(nested["verdict"] as? String == "refused")
        #expect(nested["refusedClasses"] as? [String] == ["UIColor"])
        let codable = try #require(items.first { ($0["path"] as? String)?.hasSuffix("user-details-codable.bplist") == true })
        #expect(codable["kind"] as? String == "plist")
        #expect(codable["verdict"] == nil)
        #expect(!items.contains { ($0["path"] as? String)?.hasSuffix("photo.png") == true }, "a PNG file is no item")
        #expect((summary["byKind"] as? [String: Int])?["keyedArchive"] == 9)
        #expect((summary["byVerdict"] as? [String: Int]) == ["accepted": 2, "refused": 7])
    }

    @Test func allowingAClassChangesTheVerdict() throws {
        let result = try ArchivistProcess.run(["sweep", Self.archives + "/uicolor-tint.bplist", "--allow", "UIColor"])
        #expect(result.status == 0)
        let lines = try Self.records(result.out)
        #expect(lines.first?["verdict"] as? String == "accepted")
    }

    @Test func jsonIsOneDocumentOfItemsAndSummary() throws {
        let result = try ArchivistProcess.run(["sweep", Self.archives, "--format", "json", "--jobs", "1"])
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let items = try #require(document["items"] as? [[String: Any]])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(items.count == summary["items"] as? Int)
        // One job walks the folder in name order.
        let paths = items.compactMap { $0["path"] as? String }
        #expect(paths == paths.sorted())
    }

    @Test func aDamagedFileIsOneErrorRecordAndTheSweepGoesOn() throws {
        let folder = ArchivistProcess.temporaryFile("damaged")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.archives + "/uicolor-tint.bplist"))
        try whole.prefix(100).write(to: URL(fileURLWithPath: folder + "/cut.bin"))
        try whole.write(to: URL(fileURLWithPath: folder + "/whole.bin"))
        let result = try ArchivistProcess.run(["sweep", folder])
        #expect(result.status == 0)
        let lines = try Self.records(result.out)
        let cut = try #require(lines.first { ($0["path"] as? String)?.hasSuffix("cut.bin") == true })
        #expect(cut["kind"] as? String == "unreadable")
        #expect(cut["format"] as? String == "binary")
        #expect((cut["error"] as? String)?.isEmpty == false)
        #expect(lines.contains { ($0["path"] as? String)?.hasSuffix("whole.bin") == true && $0["kind"] as? String == "keyedArchive" })
        #expect((lines.last?["summary"] as? [String: Any])?["errors"] as? Int == 1)
    }

    @Test func aPathThatDoesNotExistIsOneErrorLineAndStatus1() throws {
        let result = try ArchivistProcess.run(["sweep", "/no/such/extraction.tar"])
        #expect(result.status == 1)
        #expect(result.err == "archivist: /no/such/extraction.tar: no such file or folder\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func zeroJobsIsAUsageError() throws {
        let result = try ArchivistProcess.run(["sweep", Self.archives, "--jobs", "0"])
        #expect(result.status == 64)
    }

    @Test func htmlGoesWholeToTheFileNamedWithO() throws {
        let page = ArchivistProcess.temporaryFile("report.html")
        let result = try ArchivistProcess.run(["sweep", Self.archives, "--format", "html", "-o", page])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<script type=\"application/json\" class=\"sweep-items\">"))
        #expect(html.contains("<script type=\"application/json\" id=\"sweep-summary\">"))
        // Self-contained: nothing is fetched.
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("@import"))
        // The data reads back: the items between the tags are the JSON records.
        let start = try #require(html.range(of: "<script type=\"application/json\" class=\"sweep-items\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let items = try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [[String: Any]])
        #expect(items.count == 10)
        #expect(items.contains { ($0["path"] as? String)?.hasSuffix("note-with-attachments.bplist") == true && $0["graph"] != nil })
    }

    @Test func onATerminalItIsTextWithAProgressBar() throws {
        try #require(ArchivistProcess.hasTerminal)
        let screen = try ArchivistProcess.runOnTerminal(["sweep", Self.archives])
        #expect(screen.contains("keyedArchive (binary)"))
        #expect(screen.contains("note-with-attachments.bplist/root.attachments[1]"))
        #expect(screen.contains("refused: UIColor"))
        #expect(screen.contains("10 items in 11 files and members"))
        #expect(screen.contains("░") || screen.contains("█"), "a progress bar was drawn")
    }

    @Test func inPipesNoProgressBarIsDrawn() throws {
        let result = try ArchivistProcess.run(["sweep", Self.archives])
        #expect(!result.err.contains("░") && !result.err.contains("█"))
    }
}

/// `archivist inspect FILE --format html`.
@Suite struct InspectHTMLCLITests {
    @Test func thePageEmbedsTheSameDocumentAsInspectJSON() throws {
        let archive = ArchivistProcess.repository.appendingPathComponent("Fixtures/archives/note-with-attachments.bplist").path
        let page = ArchivistProcess.temporaryFile("graph.html")
        let html = try ArchivistProcess.run(["inspect", archive, "--format", "html", "-o", page])
        #expect(html.status == 0)
        #expect(html.stdout.isEmpty)
        // The page holds the full document, which --all-members writes (inspect leaves default members out).
        let json = try ArchivistProcess.run(["inspect", archive, "--format", "json", "--all-members"])
        let text = try String(contentsOfFile: page, encoding: .utf8)
        let start = try #require(text.range(of: "<script type=\"application/json\" id=\"archive-data\">"))
        let end = try #require(text.range(of: "</script>", range: start.upperBound..<text.endIndex))
        let embedded = try JSONSerialization.jsonObject(with: Data(text[start.upperBound..<end.lowerBound].utf8)) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: json.stdout) as? NSDictionary
        #expect(embedded != nil)
        #expect(embedded == expected)
    }

    @Test func aStringHoldingAClosingScriptTagCannotEndTheData() throws {
        // An archive whose only string closes the script element the page keeps its data in.
        let converted = ArchivistProcess.temporaryFile("script.plist")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>$archiver</key><string>NSKeyedArchiver</string>
            <key>$version</key><integer>100000</integer>
            <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
            <key>$objects</key><array><string>$null</string><string>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</string></array>
            </dict></plist>
            """.utf8).write(to: URL(fileURLWithPath: converted))
        let result = try ArchivistProcess.run(["inspect", converted, "--format", "html"])
        #expect(result.status == 0, "\(result.err)")
        #expect(!result.out.contains("</script><script>alert"))
        #expect(result.out.contains(#"\u003c/script>\u003cscript>alert(1)\u003c/script>"#))
    }
}
