import CoreDataStore
import Foundation
import StoreFixtures
import Sweep
import Testing

/// Headless Chromium, driven by Playwright for Python, for the HTML reports' tests.
enum Browser {
    static let chromium = ProcessInfo.processInfo.environment["ARCHIVIST_CHROMIUM"] ?? "/usr/bin/chromium"
    static let script = ArchivistProcess.repository.appendingPathComponent("Tests/BrowserChecks/check-report-pages.py").path

    /// Chromium and Playwright for Python are installed (`scripts/install-dependencies`).
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: chromium) else { return false }
        return (try? run(["python3", "-c", "import playwright.sync_api"]).status) == 0
    }()

    /// CI must run these tests, never skip them: `.ci/run` sets ARCHIVIST_REQUIRE_BROWSER.
    static let isRequired: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return environment["ARCHIVIST_REQUIRE_BROWSER"] == "1" || environment["CI"] != nil
    }()

    static func run(_ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, outData, String(decoding: errData, as: UTF8.self))
    }

    /// What a user sees on the two pages, from one browser run: a sweep of the hand-built
    /// archives and a 30-row BowTie store, and `inspect` of note-with-attachments.bplist.
    nonisolated(unsafe) static let observations: Result<[String: Any], BrowserFailure> = {
        do {
            let folder = ArchivistProcess.temporaryFile("browser-tree")
            let archives = ArchivistProcess.repository.appendingPathComponent("Fixtures/archives").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: archives) where name != "README.md" {
                try FileManager.default.copyItem(atPath: archives + "/" + name, toPath: folder + "/" + name)
            }
            try BowTieStoreFixture(rowCount: 30).write(to: folder + "/BowTies.sqlite", replacing: true)
            let report = ArchivistProcess.temporaryFile("report.html")
            let graph = ArchivistProcess.temporaryFile("graph.html")
            let sweep = try ArchivistProcess.run(["sweep", folder, "--format", "html", "-o", report])
            guard sweep.status == 0 else { return .failure(BrowserFailure("sweep failed: \(sweep.err)")) }
            let inspect = try ArchivistProcess.run(["inspect", archives + "/note-with-attachments.bplist", "--format", "html", "-o", graph])
            guard inspect.status == 0 else { return .failure(BrowserFailure("inspect failed: \(inspect.err)")) }
            let large = ArchivistProcess.temporaryFile("large.html")
            try largeReport().write(to: URL(fileURLWithPath: large))
            let seen = try run(["python3", script, "--chromium", chromium, "--sweep", report, "--class", "UIColor",
                                "--open", "note-with-attachments.bplist", "--inspect", graph, "--large", large])
            guard seen.status == 0 else { return .failure(BrowserFailure("the browser check failed: \(seen.err)")) }
            guard let object = try JSONSerialization.jsonObject(with: seen.out) as? [String: Any] else {
                return .failure(BrowserFailure("the browser check printed no JSON"))
            }
            return .success(object)
        } catch {
            return .failure(BrowserFailure("\(error)"))
        }
    }()

    /// A sweep page of 100,000 items, as an extraction of a whole phone gives: every third an
    /// archive holding a UIColor, the others plain plists and dictionaries.
    static func largeReport() throws -> Data {
        var writer = try #require(SweepReportWriter(format: .html, title: "100,000 items"))
        var page = writer.begin()
        var summary = SweepSummary()
        for index in 0..<100_000 {
            let path = "extraction.tar!/private/var/mobile/Containers/Data/Application/App\(index / 1_000)/Library/item-\(index).plist"
            let item = index % 3 == 0
                ? SweepItem(path: path, kind: .keyedArchive, format: .binary, size: 428, summary: "UIColor rgba(0.176, 0.165, 0.51, 1) sRGB",
                            classes: [SweepClassCount(name: "UIColor", count: 1)], verdict: .refused, refusedClasses: ["UIColor"])
                : SweepItem(path: path, kind: .plist, format: .binary, size: 100 + index % 900, summary: "dictionary of 3 entries")
            summary.add(item)
            page += writer.item(item)
        }
        page += writer.end(summary)
        return page
    }

    struct BrowserFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// The HTML reports, opened in a real browser: what a user sees there.
@Suite(.enabled(if: Browser.isAvailable || Browser.isRequired, "Chromium or Playwright for Python is not installed (scripts/install-dependencies)"))
struct ReportBrowserTests {
    static func page(_ name: String) throws -> [String: Any] {
        let all = try Browser.observations.get()
        return try #require(all[name] as? [String: Any])
    }

    @Test func theSweepPageListsEveryItemAndFilteringByClassNarrowsIt() throws {
        let sweep = try Self.page("sweep")
        #expect(sweep["errors"] as? [String] == [], "no script errors")
        #expect(sweep["requests"] as? [String] == [], "nothing fetched from the network")
        // Nine archives and a plist from the files, the note's nested archive, the store and 27
        // UIColor cells (the fixture leaves three rows' tint colors empty or not archived).
        #expect(sweep["shown"] as? String == "38 of 38 items")
        #expect(sweep["embeddedItems"] as? Int == 38)
        let rows = try #require(sweep["rows"] as? [[String: String]])
        #expect(rows.count == 38, "every row is drawn when they fit")
        #expect(rows.contains { $0["path"]?.hasSuffix("/BowTies.sqlite") == true && $0["kind"] == "coreDataStore" })
        #expect(rows.contains { $0["path"]?.hasSuffix("/user-details-codable.bplist") == true && $0["kind"] == "plist" })
        #expect(sweep["cards"] as? [String: String] == ["plist": "1", "keyedArchive": "36", "typedStream": "0", "nibArchive": "0", "bookmark": "0", "coreDataStore": "1", "sqlite": "0", "unreadable": "0"])

        let filtered = try #require(sweep["filtered"] as? [String: Any])
        #expect(filtered["shown"] as? String == "31 of 38 items")
        let kept = try #require(filtered["rows"] as? [[String: String]])
        #expect(kept.count == 31)
        #expect(kept.allSatisfy { $0["classes"]?.contains("UIColor") == true })
        #expect(kept.allSatisfy { $0["verdict"] == "refused" }, "the default allow-list refuses UIColor")

        let detail = try #require(sweep["detail"] as? [String: Any])
        #expect((detail["title"] as? String)?.hasSuffix("/note-with-attachments.bplist") == true)
        #expect((detail["fields"] as? [String])?.contains("kind\tkeyedArchive") == true)
        #expect(detail["graphRoot"] as? String == "root = #1 MyApp.Note")
        #expect((sweep["largestFirst"] as? String)?.hasSuffix("/BowTies.sqlite") == true, "sorting by size, largest first")
    }

    @Test func aPageOfAHundredThousandItemsDrawsOnlyTheRowsInView() throws {
        let large = try Self.page("large")
        #expect(large["errors"] as? [String] == [])
        #expect(large["shown"] as? String == "100,000 of 100,000 items")
        #expect(large["embeddedItems"] as? Int == 100_000)
        let drawn = try #require(large["drawn"] as? Int)
        #expect(drawn > 10 && drawn < 200, "only the rows in view, and a few around them, are in the document")
        #expect((large["lastAfterScrolling"] as? String)?.hasSuffix("/item-99999.plist") == true)
        #expect((large["drawnAfterScrolling"] as? Int).map { $0 < 200 } == true)
        let filtered = try #require(large["filtered"] as? [String: Any])
        #expect(filtered["shown"] as? String == "33,334 of 100,000 items")
        #expect(filtered["classes"] as? [String] == ["UIColor"])
        #expect((filtered["drawn"] as? Int).map { $0 < 200 } == true)
    }

    @Test func theInspectPageShowsTheGraphAsACollapsibleTree() throws {
        let inspect = try Self.page("inspect")
        #expect(inspect["errors"] as? [String] == [])
        #expect(inspect["requests"] as? [String] == [])
        #expect(inspect["rootSummary"] as? String == "root = #1 MyApp.Note")
        #expect(inspect["rootFields"] as? [String] == ["title", "created", "tint", "attachments", "pinned", "owner"])
        // A node's fields appear when it is expanded.
        #expect(inspect["ownerFieldsBeforeExpanding"] as? Int == 0)
        #expect(inspect["ownerFields"] as? [String] == ["name", "note"])
        // The owner's note is the root: a cycle, marked, not followed.
        #expect(inspect["cycle"] as? [String] == ["↺ #1 MyApp.Note (cycle)"])
        // The attachment appears in full in attachments[2]; `pinned` links there, and following
        // the link shows it.
        #expect(inspect["shared"] as? String == "→ #10 MyApp.Attachment")
        #expect(inspect["revealed"] as? [String] == ["g-obj-10"])
        // UIColor (0.176, 0.165, 0.51): 0.176 × 255 = 44.9, 0.165 × 255 = 42.1, 0.51 × 255 = 130.1.
        let swatch = try #require(inspect["swatch"] as? [String: String])
        #expect(swatch["background"] == "rgb(45, 42, 130)")
        #expect((inspect["created"] as? String)?.contains("2025-12-01T00:00:00Z (local: 12/1/2025, 12:00:00 AM)") == true,
                "ISO 8601 and local time (the browser runs in UTC)")
        let image = try #require(inspect["image"] as? [String: Any])
        #expect(image["width"] as? Int == 2 && image["height"] as? Int == 1, "the PNG in NSData is shown as the image it is")
        let nested = try #require(inspect["nestedData"] as? [String: String])
        #expect(nested["holds"] == "holds: keyed archive (binary property list)")
        #expect(nested["hex"]?.hasPrefix("00000000  62 70 6c 69 73 74 30 30") == true, "data as hex: bplist00")
        #expect((inspect["classes"] as? [String])?.contains("1 UIColor") == true)
    }
}
