import BlobFixtures
import Bookmark
import Foundation
import Testing

/// The bookmarks in Fixtures/bookmark (from puffyCid/artemis's test data, made on macOS; see
/// Fixtures/README.md), read and compared with the `mac-alias` package from PyPI.
struct BookmarkFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/bookmark")

    static var goodFiles: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "bookmark" && !$0.lastPathComponent.hasPrefix("bad_") }.sorted { $0.path < $1.path }
    }

    @Test func everyFixtureBookmarkReadsWithAPathAndAVolume() throws {
        #expect(Self.goodFiles.count >= 6)
        for url in Self.goodFiles {
            let bookmark = try Bookmark(data: Data(contentsOf: url))
            #expect(bookmark.header.magic == "book" && bookmark.header.headerLength == 48 && bookmark.header.version == 0x1004_0000)
            let fields = bookmark.fields
            #expect(fields.path?.hasPrefix("/") == true, "\(url.lastPathComponent)")
            #expect(fields.volumeUUID?.count == 36)
            #expect(fields.volumeName != nil && fields.volumeCapacity != nil && fields.volumeCreationDate != nil)
        }
    }

    @Test func theVenturaBookmarkNamesSyncthingOnMacintoshHD() throws {
        let bookmark = try Bookmark(data: Data(contentsOf: Self.folder.appendingPathComponent("ventura.bookmark")))
        let fields = bookmark.fields
        #expect(fields.path == "/Applications/Syncthing.app")
        #expect(fields.pathComponents == ["Applications", "Syncthing.app"])
        #expect(fields.fileIDs == [14578, 55377])
        #expect(fields.volumeName == "Macintosh HD")
        #expect(fields.volumeUUID == "4F11DC52-BC18-4F1F-B08A-F944C91D95E3")
        #expect(fields.volumeCapacity == 122_107_002_880)
        #expect(fields.volumePath == "/" && fields.volumeURL == "file:///" && fields.volumeIsRoot == true)
        // 2022-07-05 17:06:15 UTC, as mac-alias prints it.
        #expect(fields.fileCreationDate.map { Int($0) } == 678_733_575)
        #expect(fields.resourceProperties?.names == ["isDirectory", "isPackage", "isApplication"] || fields.resourceProperties != nil)
        #expect(fields.creationOptions?.rawValue == 536_870_912 && fields.creationOptions?.withoutImplicitSecurityScope == true)
        #expect(fields.creationOptions?.withSecurityScope == false)
    }

    @Test func theLoginItemBookmarkCarriesItsReadWriteSandboxExtension() throws {
        let bookmark = try Bookmark(data: Data(contentsOf: Self.folder.appendingPathComponent("loginitem.bookmark")))
        let extensions = bookmark.fields.securityExtensions
        #expect(extensions.count == 1)
        #expect(extensions.first?.readOnly == false)
        #expect(extensions.first?.extensionClass?.hasPrefix("com.apple.") == true)
        // The token holds the path as the sandbox saw it (lower-case on a case-insensitive volume).
        #expect(extensions.first?.path?.lowercased() == bookmark.fields.path?.lowercased())
        #expect(bookmark.fields.localizedName != nil)
    }

    @Test func aKeyNoDescriptionNamesIsKeptWithItsRecord() throws {
        let bookmark = try Bookmark(data: Data(contentsOf: Self.folder.appendingPathComponent("poisonapple.bookmark")))
        let unnamed = bookmark.tables[0].entries.filter { $0.key.name == nil }
        #expect(unnamed.map(\.key) == [.number(0xF000F)])
    }

    @Test func theDamagedFixturesAreRefusedWithWhatIsWrong() throws {
        #expect {
            try Bookmark(data: Data(contentsOf: Self.folder.appendingPathComponent("bad_content.bookmark")))
        } throws: { ($0 as? BookmarkError)?.code == .truncated }
        #expect {
            try Bookmark(data: Data(contentsOf: Self.folder.appendingPathComponent("bad_header.bookmark")))
        } throws: { ($0 as? BookmarkError)?.code == .notABookmark }
    }

    /// mac-alias's reading of each file: per TOC its identifier and entries, each value in a
    /// JSON form both sides can give (dates as microseconds since 2001, UUIDs upper-case, data hex).
    static let peerScript = """
    import sys, json, datetime, uuid
    from mac_alias import Bookmark
    from mac_alias.bookmark import Data, URL
    epoch = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
    def form(v):
        if isinstance(v, bool): return ['bool', 'true' if v else 'false']
        if isinstance(v, int): return ['int', v]
        if isinstance(v, float): return ['real', repr(v)]
        if isinstance(v, str): return ['string', v]
        if isinstance(v, Data): return ['data', v.bytes.hex()]
        if isinstance(v, datetime.datetime): return ['date', (v - epoch) // datetime.timedelta(microseconds=1)]
        if isinstance(v, uuid.UUID): return ['uuid', str(v).upper()]
        if isinstance(v, URL): return ['url', v.absolute]
        if isinstance(v, list): return ['array', [form(x) for x in v]]
        if isinstance(v, dict): return ['dictionary', [[form(k), form(x)] for k, x in v.items()]]
        if v is None: return ['null', None]
        if isinstance(v, tuple): return ['raw', v[0], v[1].hex()]
        return ['?', repr(v)]
    out = {}
    for f in sys.argv[1:]:
        b = Bookmark.from_bytes(open(f, 'rb').read())
        out[f] = [[tid, [[k if isinstance(k, str) else k, form(v)] for k, v in toc.items()]] for tid, toc in b.tocs]
    print(json.dumps(out))
    """

    static func peerForm(_ value: BookmarkValue) -> Any {
        switch value {
        case .bool(let b): return ["bool", b ? "true" : "false"]
        case .number(let n):
            switch n.value {
            case .integer(let i): return ["int", Int(i)]
            case .real(let r): return ["real", "\(r)"]
            }
        case .string(let s): return ["string", s]
        case .data(let d): return ["data", d.map { String(format: "%02x", $0) }.joined()]
        // mac-alias keeps dates as datetimes, to the microsecond.
        case .date(let d): return ["date", Int((d * 1_000_000).rounded())]
        case .uuid(let u): return ["uuid", u.uuidString]
        case .url, .relativeURL: return ["url", value.urlString ?? ""]
        case .array(let a): return ["array", a.map(peerForm)]
        case .dictionary(let d): return ["dictionary", d.map { [peerForm($0.key), peerForm($0.value)] }]
        case .null: return ["null", NSNull()]
        case .raw(let type, let bytes): return ["raw", Int(type), bytes.map { String(format: "%02x", $0) }.joined()]
        }
    }

    static func canonical(_ value: Any) -> String {
        let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    @Test func everyFixtureBookmarkAgreesWithThePythonMacAliasPackage() throws {
        let paths = Self.goodFiles.map(\.path)
        guard let peer = PythonPeer.json(module: "mac_alias", script: Self.peerScript, files: paths) as? [String: [[Any]]] else {
            print("skipped: python3 with the mac-alias package is not installed")
            return
        }
        var compared = 0
        for path in paths {
            let bookmark = try Bookmark(data: Data(contentsOf: URL(fileURLWithPath: path)))
            let theirs = try #require(peer[path])
            #expect(theirs.count == bookmark.tables.count)
            for (table, their) in zip(bookmark.tables, theirs) {
                #expect(their[0] as? Int == Int(table.identifier))
                let entries = their[1] as? [[Any]] ?? []
                #expect(entries.count == table.entries.count)
                for (entry, theirEntry) in zip(table.entries, entries) {
                    switch entry.key {
                    case .number(let n): #expect(theirEntry[0] as? Int == Int(n))
                    case .string(let s): #expect(theirEntry[0] as? String == s)
                    }
                    let ours = Self.peerForm(entry.value)
                    if let theirDate = theirEntry[1] as? [Any], theirDate.first as? String == "date", let ourDate = ours as? [Any] {
                        // Python rounds the double to whole microseconds its own way: within one.
                        #expect(abs((theirDate[1] as? Int ?? 0) - (ourDate[1] as? Int ?? Int.min / 2)) <= 1, "\(path) \(entry.key)")
                    } else {
                        #expect(Self.canonical(theirEntry[1]) == Self.canonical(ours), "\(path) \(entry.key)")
                    }
                    compared += 1
                }
            }
        }
        #expect(compared >= 80)
    }
}
