import Foundation
import Testing

/// Compiled nibs and bookmark data through every verb, on the fixtures (Fixtures/nib from
/// viraptor/ibtool, compiled by Apple's ibtool; Fixtures/bookmark from puffyCid/artemis; MIT).
struct BookmarkAndNibCLITests {
    static func fixture(_ path: String) -> String { ArchivistProcess.repository.appendingPathComponent("Fixtures/" + path).path }
    static let nib = fixture("nib/minimal.nib")
    static let recentItems = fixture("bookmark/com.apple.LSSharedFileList.GlobalLoginItems.sfl2")

    @Test func inspectShowsANibsObjectGraphInEveryFormat() throws {
        let r = try ArchivistProcess.run(["inspect", Self.nib])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("root = #1 NSObject\n  IB.objectdata = #2 NSIBObjectData"))
        #expect(r.out.contains("IBClassName = #5 NSString \"NSApplication\""))
        let json = try ArchivistProcess.run(["inspect", "--format", "json", Self.nib])
        let document = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect(document?["archiver"] as? String == "NIBArchive")
        for format in ["dot", "html"] {
            let other = try ArchivistProcess.run(["inspect", "--format", format, Self.nib])
            #expect(other.status == 0, "\(format): \(other.err)")
            #expect(other.out.contains("NSIBObjectData"), "\(format)")
        }
    }

    @Test func checkListsANibsClassesAndSaysItIsNoSecureCodingBlob() throws {
        let r = try ArchivistProcess.run(["check", Self.nib])
        #expect(r.status == 1)
        #expect(r.out.contains("refused: a compiled nib (NIBArchive, coder version 10), which is no secure-coding blob"))
        #expect(r.out.contains("    NSIBObjectData 1\n"))
        #expect(r.out.contains("    NSArray 5\n"))
        let json = try ArchivistProcess.run(["check", "--format", "json", Self.nib])
        let records = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
        #expect(records?.first?["accepted"] as? Bool == false)
        #expect(records?.first?["archiver"] as? String == "NIBArchive")
        #expect((records?.first?["classes"] as? [String: Int])?["NSCustomObject"] == 2)
        #expect((records?.first?["nibArchive"] as? [String: Any])?["reason"] as? String != nil)
    }

    @Test func unarchiveWritesANibsPayloadOnlyWithoutTheCheckAndWithCyclesBroken() throws {
        let refused = try ArchivistProcess.run(["unarchive", Self.nib, "--to", "json"])
        #expect(refused.status == 1)
        #expect(refused.err.contains("--no-check"))
        let r = try ArchivistProcess.run(["unarchive", Self.nib, "--to", "json", "--no-check", "--break-cycles"])
        #expect(r.status == 0, "\(r.err)")
        let payload = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let objectData = payload?["IB.objectdata"] as? [String: Any]
        #expect(objectData?["NSOidsValues"] as? [Int] == [1, 2])
    }

    @Test func unarchiveExpandsEachBookmarkOfARecentItemsListIntoItsFields() throws {
        let r = try ArchivistProcess.run(["unarchive", Self.recentItems, "--to", "json", "--expand-nested", "--date-strategy", "iso8601"])
        #expect(r.status == 0, "\(r.err)")
        let payload = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let items = payload?["items"] as? [[String: Any]] ?? []
        #expect(items.count == 2)
        let bookmark = items.first?["Bookmark"] as? [String: Any]
        #expect(bookmark?["path"] as? String == "/Users/android/Downloads/medusa.py")
        #expect(bookmark?["pathComponents"] as? [String] == ["Users", "android", "Downloads", "medusa.py"])
        #expect(bookmark?["creatorUserName"] as? String == "android" && bookmark?["creatorUID"] as? Int == 501)
        #expect((bookmark?["volume"] as? [String: Any])?["name"] as? String == "Macintosh HD")
        #expect((bookmark?["fileCreationDate"] as? String)?.hasSuffix("Z") == true)
        #expect((bookmark?["otherFields"] as? [[String: Any]])?.first?["key"] as? String == "0xf000f")
    }

    @Test func inspectReadsABookmarkFileAndEveryVerbNamesOne() throws {
        let bookmark = Self.fixture("bookmark/ventura.bookmark")
        let r = try ArchivistProcess.run(["inspect", bookmark])
        #expect(r.status == 0)
        #expect(r.out.contains("\"path\" => \"/Applications/Syncthing.app\""))
        let json = try ArchivistProcess.run(["inspect", "--format", "json", bookmark])
        let fields = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect(fields?["fileCreationDate"] as? String == "2022-07-05T17:06:15Z")
        let lint = try ArchivistProcess.run(["lint", bookmark])
        #expect(lint.status == 1)
        #expect(lint.err.contains("bookmark data, 560 bytes; `archivist inspect` reads it"))
        let broken = try ArchivistProcess.run(["inspect", Self.fixture("bookmark/bad_content.bookmark")])
        #expect(broken.status == 1)
        #expect(broken.err.contains("the header gives a length of 716 bytes and the data has 377"))
    }

    @Test func printAndDiffReadNibsAndDiffShowsBookmarkFieldsChanging() throws {
        let printed = try ArchivistProcess.run(["print", Self.nib])
        #expect(printed.status == 0)
        #expect(printed.out.contains("\"$archiver\" => \"NSKeyedArchiver\""))
        let same = try ArchivistProcess.run(["diff", Self.nib, Self.nib])
        #expect(same.status == 0)
        let other = try ArchivistProcess.run(["diff", Self.nib, Self.fixture("nib/numfmt.nib")])
        #expect(other.status == 1)
        let bookmarks = try ArchivistProcess.run(["diff", Self.fixture("bookmark/ventura.bookmark"), Self.fixture("bookmark/loginitem.bookmark"),
                                                  "--format", "json"])
        #expect(bookmarks.status == 1)
        let report = try JSONSerialization.jsonObject(with: bookmarks.stdout) as? [String: Any]
        let paths = (report?["differences"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(paths.contains { $0.hasPrefix("volume.") || $0.hasPrefix("root.volume") || $0.contains("volume") })
        #expect(paths.contains { $0.contains("fileIDs") })
    }

    @Test func sweepOfATreeWithRecentItemsNibsAndDownloadsReportsTheirPathsAndClasses() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-blobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent("Library/Application Support/com.apple.sharedfilelist")
        let app = root.appendingPathComponent("Applications/Demo.app/Contents/Resources/Base.lproj/MainMenu.nib")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.recentItems, toPath: library.appendingPathComponent("com.apple.LSSharedFileList.GlobalLoginItems.sfl2").path)
        try FileManager.default.copyItem(atPath: Self.fixture("bookmark/BackgroundItems-v4.btm"), toPath: library.appendingPathComponent("BackgroundItems-v4.btm").path)
        try FileManager.default.copyItem(atPath: Self.fixture("bookmark/safari-Downloads.plist"), toPath: root.appendingPathComponent("Downloads.plist").path)
        try FileManager.default.copyItem(atPath: Self.fixture("nib/HSChooserWindow.nib"), toPath: app.appendingPathComponent("keyedobjects-101300.nib").path)
        let r = try ArchivistProcess.run(["sweep", root.path, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.err)")
        let records = r.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let bookmarks = records.filter { $0["kind"] as? String == "bookmark" }
        let targets = Set(bookmarks.compactMap { $0["target"] as? String })
        #expect(targets.contains("/Users/android/Downloads/medusa.py"))
        #expect(targets.contains("/Applications/Safari.app/Contents/MacOS/Safari"))
        #expect(targets.contains("/Applications/Syncthing.app"))
        #expect(targets.contains { $0.hasSuffix("powershell-7.2.5-osx-arm64.pkg") })
        #expect(bookmarks.contains { ($0["path"] as? String)?.hasSuffix(".sfl2/root.items[0].Bookmark") == true })
        let nibs = records.filter { $0["kind"] as? String == "nibArchive" }
        // The file, and the nibs of its table view's two cell views (NSNibFileData).
        #expect(nibs.count == 3)
        #expect(nibs.filter { ($0["path"] as? String)?.hasSuffix(".NSNibFileData") == true }.count == 2)
        let nib = nibs.first { ($0["path"] as? String)?.hasSuffix("keyedobjects-101300.nib") == true }
        #expect(nib?["verdict"] as? String == "refused")
        #expect((nib?["classes"] as? [String: Int])?["NSIBObjectData"] == 1)
        #expect((nib?["classes"] as? [String: Int])?["NSWindowTemplate"] != nil)
    }
}
