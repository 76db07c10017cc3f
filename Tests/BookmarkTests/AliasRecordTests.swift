import BlobFixtures
import Bookmark
import Foundation
import Testing

/// Classic alias records (version 2) built by `AliasRecordWriter` field by field, read back,
/// compared with mac-alias, and broken on purpose. No permissively licensed alias record was
/// found among public test data, so these are built (see docs/bookmarks-and-nibs.md).
struct AliasRecordTests {
    static func sample() -> AliasRecordWriter {
        var writer = AliasRecordWriter()
        writer.kind = 0
        writer.volumeName = "Macintosh HD"
        writer.volumeDate = 3_600_000_000
        writer.parentDirectoryID = 1234
        writer.fileName = "Report.txt"
        writer.fileID = 5678
        writer.fileDate = 3_700_000_000
        writer.creatorCode = "ttxt"
        writer.typeCode = "TEXT"
        writer.tags = [
            (0, Array("Documents".utf8)),
            (1, [0, 0, 4, 210, 0, 0, 0, 2]),
            (2, Array("Macintosh HD:Users:me:Documents:Report.txt".utf8)),
            (14, AliasRecordWriter.unicodeName("Report.txt")),
            (15, AliasRecordWriter.unicodeName("Macintosh HD")),
            (18, Array("/Users/me/Documents/Report.txt".utf8)),
            (19, Array("/".utf8)),
            (99, [7, 7, 7]),
        ]
        return writer
    }

    @Test func aVersion2RecordReadsWithItsTaggedFields() throws {
        let record = try AliasRecord(data: Data(Self.sample().bytes()))
        #expect(record.version == 2 && record.kind == 0)
        #expect(record.volumeName == "Macintosh HD" && record.fileName == "Report.txt")
        #expect(record.fileSystemType == "H+" && record.creatorCode == "ttxt" && record.typeCode == "TEXT")
        #expect(record.parentDirectoryID == 1234 && record.fileID == 5678)
        #expect(record.volumeCreationDate == 3_600_000_000 - 3_061_152_000)
        #expect(record.folderName == "Documents" && record.directoryIDs == [1234, 2])
        #expect(record.posixPath == "/Users/me/Documents/Report.txt" && record.volumeMountPoint == "/")
        #expect(record.carbonPath == "Macintosh HD:Users:me:Documents:Report.txt")
        #expect(record.otherTags == [AliasRecord.Tag(tag: 99, bytes: Data([7, 7, 7]))])
        #expect(AliasRecord.isAliasRecord(Data(Self.sample().bytes())))
    }

    @Test func truncationAtEveryByteIsATypedErrorNeverACrash() {
        var bytes = Self.sample().bytes()
        // The size field says the full length: every shorter prefix is truncated.
        for end in 0..<bytes.count {
            #expect(throws: BookmarkError.self) { try AliasRecord(data: Data(bytes[..<end])) }
        }
        bytes[7] = 4   // version 4
        #expect { try AliasRecord(data: Data(bytes)) } throws: { ($0 as? BookmarkError)?.code == .notABookmark }
    }

    @Test func bytesThatOnlyLookLikeAnAliasAreNotOne() {
        var bytes = Self.sample().bytes()
        bytes.append(0)   // one byte more than the size field says
        #expect(!AliasRecord.isAliasRecord(Data(bytes)))
        #expect(!AliasRecord.isAliasRecord(Data(count: 200)))
    }

    @Test func aBookmarkKeepsAnAliasRecordUnderKeyFE00() throws {
        var writer = BookmarkWriter()
        let bytes = writer.bytes(tables: [BookmarkTable(identifier: 1, entries: [
            BookmarkEntry(key: .aliasData, value: .data(Data(Self.sample().bytes()))),
        ])])
        #expect(try Bookmark(data: Data(bytes)).fields.aliasRecord?.posixPath == "/Users/me/Documents/Report.txt")
    }

    @Test func theRecordAgreesWithThePythonMacAliasPackage() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("alias-\(UUID().uuidString)")
        try Data(Self.sample().bytes()).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let script = """
        import sys, json
        from mac_alias import Alias
        a = Alias.from_bytes(open(sys.argv[1], 'rb').read())
        print(json.dumps({'volume': a.volume.name, 'fstype': a.volume.fs_type.decode(), 'file': a.target.filename,
                          'kind': a.target.kind, 'folder': a.target.folder_cnid, 'cnid': a.target.cnid,
                          'posix': a.target.posix_path, 'mount': a.volume.posix_path, 'folderName': a.target.folder_name,
                          'cnids': list(a.target.cnid_path), 'creator': a.target.creator_code.decode(),
                          'type': a.target.type_code.decode(), 'extra': [[t, v.hex()] for t, v in a.extra]}))
        """
        guard let peer = PythonPeer.json(module: "mac_alias", script: script, files: [url.path]) as? [String: Any] else {
            print("skipped: python3 with the mac-alias package is not installed")
            return
        }
        let record = try AliasRecord(data: Data(contentsOf: url))
        #expect(peer["volume"] as? String == record.volumeName)
        #expect(peer["fstype"] as? String == record.fileSystemType)
        #expect(peer["file"] as? String == record.fileName)
        #expect(peer["kind"] as? Int == record.kind)
        #expect(peer["folder"] as? Int == Int(record.parentDirectoryID) && peer["cnid"] as? Int == Int(record.fileID))
        #expect(peer["posix"] as? String == record.posixPath && peer["mount"] as? String == record.volumeMountPoint)
        #expect(peer["folderName"] as? String == record.folderName)
        #expect(peer["cnids"] as? [Int] == record.directoryIDs?.map { Int($0) })
        #expect(peer["creator"] as? String == record.creatorCode && peer["type"] as? String == record.typeCode)
        #expect((peer["extra"] as? [[Any]])?.map { "\($0[0])" } == record.otherTags.map { "\($0.tag)" })
    }
}
