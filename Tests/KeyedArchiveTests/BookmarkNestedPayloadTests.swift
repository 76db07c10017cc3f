import BlobFixtures
import ArchiveReports
import Bookmark
import Foundation
import KeyedArchive
import PropertyList
import Testing

/// Bookmark data and alias records inside archives and plists: identified by content, expanded
/// into their fields, summarized with their path, and compared field by field.
struct BookmarkNestedPayloadTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/bookmark")

    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    @Test func bookmarkDataIsIdentifiedAndExpandedIntoItsFields() throws {
        let data = try Self.fixture("ventura.bookmark")
        #expect(NestedPayload.identify(data) == .bookmark)
        guard case .bookmark(let bookmark)? = NestedPayload.expand(data) else { Issue.record("not expanded"); return }
        let value = BookmarkPropertyList.value(of: bookmark)
        let d = try #require(value.dictionaryValue)
        #expect(d["path"] == .string("/Applications/Syncthing.app"))
        #expect(d["pathComponents"] == .array([.string("Applications"), .string("Syncthing.app")]))
        let volume = try #require(d["volume"]?.dictionaryValue)
        #expect(volume["name"] == .string("Macintosh HD"))
        #expect(volume["uuid"] == .string("4F11DC52-BC18-4F1F-B08A-F944C91D95E3"))
        #expect(volume["capacity"] == .integer(PropertyListInteger(122_107_002_880)))
        #expect(d["creationOptions"]?.dictionaryValue?["securityScoped"] == .bool(false))
        #expect(d["otherFields"] == nil)
    }

    @Test func anUnnamedKeyIsKeptAmongOtherFieldsWithItsType() throws {
        let bookmark = try Bookmark(data: Self.fixture("poisonapple.bookmark"))
        let others = try #require(BookmarkPropertyList.value(of: bookmark).dictionaryValue?["otherFields"]?.arrayValue)
        #expect(others.count == 1)
        #expect(others.first?.dictionaryValue?["key"] == .string("0xf000f"))
        #expect(others.first?.dictionaryValue?["type"] == .string("bool"))
    }

    @Test func theRecentItemsListShowsEachItemsPathInInspectsTextAndJSON() throws {
        let archive = try KeyedArchive(data: Self.fixture("com.apple.LSSharedFileList.GlobalLoginItems.sfl2"))
        let text = KeyedArchiveTreePrinter().render(archive)
        #expect(text.contains("bookmark data /Users/android/Downloads/medusa.py"))
        #expect(text.contains("bookmark data /Applications/Safari.app/Contents/MacOS/Safari"))
        let expanded = KeyedArchiveTreePrinter(nested: NestedPayloadOptions(expands: true, readOptions: .default)).render(archive)
        #expect(expanded.contains("\"creatorUserName\" => \"android\""))
        let json = try KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: true, readOptions: .default)).write(archive)
        let textJSON = String(decoding: json, as: UTF8.self)
        #expect(textJSON.contains("\"format\":\"bookmark\"") || textJSON.contains("\"format\" : \"bookmark\""))
        #expect(textJSON.contains("medusa.py"))
    }

    @Test func diffComparesBookmarkDataFieldByField() throws {
        var writer = BookmarkWriter()
        func bookmark(_ components: [String], volume: String) -> Data {
            var w = BookmarkWriter()
            return Data(w.bytes(tables: [BookmarkTable(identifier: 1, entries: [
                BookmarkEntry(key: .pathComponents, value: .array(components.map { .string($0) })),
                BookmarkEntry(key: .volumeName, value: .string(volume)),
            ])]))
        }
        _ = writer
        func archive(_ data: Data) throws -> KeyedArchive {
            let plist: PropertyListValue = .dictionary(PropertyListDictionary([
                ("$version", .integer(PropertyListInteger(100_000))), ("$archiver", "NSKeyedArchiver"),
                ("$top", .dictionary(PropertyListDictionary([("root", .uid(1))]))),
                ("$objects", .array(["$null", .data(data)])),
            ]))
            return try KeyedArchive(plist: plist)
        }
        let old = try archive(bookmark(["Users", "me", "a.txt"], volume: "Macintosh HD"))
        let new = try archive(bookmark(["Users", "me", "b.txt"], volume: "Macintosh HD"))
        let differences = KeyedArchiveDiff().differences(from: old, to: new)
        let paths = differences.map(\.path)
        #expect(paths.contains("root.path"))
        #expect(paths.contains("root.pathComponents[2]"))
        #expect(!paths.contains { $0.contains("volume") })
    }

    @Test func anAliasRecordInDataIsIdentifiedOnlyWhenItIsExactlyOne() throws {
        var writer = AliasRecordWriter()
        writer.fileName = "a.txt"
        writer.tags = [(18, Array("/Users/me/a.txt".utf8))]
        let data = Data(writer.bytes())
        #expect(NestedPayload.identify(data) == .aliasRecord)
        guard case .aliasRecord(let alias)? = NestedPayload.expand(data) else { Issue.record("not expanded"); return }
        #expect(BookmarkPropertyList.value(of: alias).dictionaryValue?["path"] == .string("/Users/me/a.txt"))
        #expect(NestedPayload.identify(data + Data([0])) != .aliasRecord)
    }
}
