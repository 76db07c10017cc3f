import BlobFixtures
import Bookmark
import Foundation
import Testing

/// The reader on bookmarks built by `BookmarkWriter`: every record type, string keys, chained
/// tables, the named fields; and hostile bookmarks (each rule broken on purpose, truncation at
/// every byte, loops and shared records against the limits).
struct BookmarkReaderTests {
    static let uuid = UUID(uuidString: "4F11DC52-BC18-4F1F-B08A-F944C91D95E3")!

    static func everyType() -> (bytes: [UInt8], table: BookmarkTable) {
        let table = BookmarkTable(identifier: 1, entries: [
            BookmarkEntry(key: .pathComponents, value: .array([.string("Users"), .string("me"), .string("Notes.txt")])),
            BookmarkEntry(key: .fileIDs, value: .array([.number(.init(type: 4, value: .integer(2))), .number(.init(type: 4, value: .integer(-7)))])),
            BookmarkEntry(key: .fileCreationDate, value: .date(678_733_575.5)),
            BookmarkEntry(key: .volumeName, value: .string("Macintosh HD")),
            BookmarkEntry(key: .volumeUUID, value: .string(uuid.uuidString)),
            BookmarkEntry(key: .volumeCapacity, value: .number(.init(type: 4, value: .integer(122_107_002_880)))),
            BookmarkEntry(key: .volumeURL, value: .url("file:///")),
            BookmarkEntry(key: .volumeIsRoot, value: .bool(true)),
            BookmarkEntry(key: .volumeMountPoint, value: .relativeURL(base: .url("file:///Volumes/"), relative: .string("Backup/"))),
            BookmarkEntry(key: .creatorUID, value: .number(.init(type: 3, value: .integer(501)))),
            BookmarkEntry(key: .creationOptions, value: .number(.init(type: 4, value: .integer(1 << 11 | 1 << 12)))),
            BookmarkEntry(key: .readOnlySecurityExtension, value: .data(Data("aa;00;00000000;00000000;com.apple.app-sandbox.read;01;01000004;00000000000002;/Users/me/Notes.txt\u{0}".utf8))),
            BookmarkEntry(key: .number(0xABCD), value: .dictionary([.init(key: .string("k"), value: .uuid(uuid))])),
            BookmarkEntry(key: .string("NSURLDocumentIdentifierKey"), value: .number(.init(type: 6, value: .real(0.25)))),
            BookmarkEntry(key: .number(0xABCE), value: .null),
            BookmarkEntry(key: .number(0xABCF), value: .raw(type: 0xBEEF_0001, bytes: Data([1, 2, 3]))),
            BookmarkEntry(key: .number(0xABD0), value: .number(.init(type: 5, value: .real(1.5)))),
        ])
        var writer = BookmarkWriter()
        return (writer.bytes(tables: [table, BookmarkTable(identifier: 2, entries: [BookmarkEntry(key: .volumeName, value: .string("Image"))])]), table)
    }

    @Test func everyRecordTypeReadsBackAsWritten() throws {
        let (bytes, table) = Self.everyType()
        let bookmark = try Bookmark(data: Data(bytes))
        #expect(bookmark.tables.count == 2)
        #expect(bookmark.tables[0] == table)
        #expect(bookmark.tables[1].identifier == 2)
        #expect(bookmark[.volumeName] == .string("Macintosh HD"))
    }

    @Test func theNamedFieldsSayWhatTheWellKnownKeysHold() throws {
        let fields = try Bookmark(data: Data(Self.everyType().bytes)).fields
        #expect(fields.path == "/Users/me/Notes.txt")
        #expect(fields.fileIDs == [2, -7])
        #expect(fields.fileCreationDate == 678_733_575.5)
        #expect(fields.volumeUUID == Self.uuid.uuidString && fields.volumeCapacity == 122_107_002_880)
        #expect(fields.volumeMountPoint == "file:///Volumes/Backup/")
        #expect(fields.creatorUID == 501)
        #expect(fields.creationOptions?.withSecurityScope == true && fields.creationOptions?.securityScopeAllowOnlyReadAccess == true)
        #expect(fields.creationOptions?.names == ["withSecurityScope", "securityScopeAllowOnlyReadAccess"])
        #expect(fields.securityExtensions == [BookmarkSecurityExtension(
            Data("aa;00;00000000;00000000;com.apple.app-sandbox.read;01;01000004;00000000000002;/Users/me/Notes.txt".utf8), readOnly: true)])
        #expect(fields.securityExtensions.first?.extensionClass == "com.apple.app-sandbox.read")
        #expect(fields.securityExtensions.first?.path == "/Users/me/Notes.txt")
    }

    @Test func truncationAtEveryByteIsATypedErrorNeverACrash() {
        let bytes = Self.everyType().bytes
        for end in 0..<bytes.count {
            #expect(throws: BookmarkError.self) { try Bookmark(data: Data(bytes[..<end])) }
        }
    }

    static func code(_ bytes: [UInt8], options: BookmarkReadOptions = .default) -> BookmarkError.Code? {
        do {
            _ = try Bookmark(data: Data(bytes), options: options)
            return nil
        } catch {
            return error.code
        }
    }

    /// A bookmark of one table whose entries are (key, offset) pairs over records written by hand.
    static func handMade(_ build: (inout BookmarkWriter) -> [(UInt32, UInt32)]) -> [UInt8] {
        var writer = BookmarkWriter()
        let entries = build(&writer)
        return writer.bytes(rawTables: [(1, entries)])
    }

    @Test func offsetsLengthsAndTablesAreCheckedBeforeTheyAreRead() {
        // A record offset past the end.
        #expect(Self.code(Self.handMade { _ in [(UInt32(0x1004), UInt32(0x7FFF_0000))] }) == .malformed)
        // A record whose length runs past the end.
        var cut = Self.handMade { w in [(UInt32(0x1004), w.record(type: 0x0101, bytes: [0x41]))] }
        cut[52] = 0xFF   // the string record's length (its first byte, 4 bytes after the header)
        #expect(Self.code(cut) == .truncated)
        // An array of 6 bytes: not a whole number of offsets.
        #expect(Self.code(Self.handMade { w in [(UInt32(0x1004), w.record(type: 0x0601, bytes: [0, 0, 0, 0, 0, 0]))] }) == .malformed)
        // A dictionary of 12 bytes: not a whole number of pairs.
        #expect(Self.code(Self.handMade { w in [(UInt32(0x1004), w.record(type: 0x0701, bytes: [UInt8](repeating: 4, count: 12)))] }) == .malformed)
        // A key naming a record that is no string.
        #expect(Self.code(Self.handMade { w in [(0x8000_0000 | w.record(.bool(true)), w.record(.bool(true)))] }) == .malformed)
        // A TOC without its magic.
        var bytes = Self.handMade { w in [(UInt32(0x1004), w.record(.bool(true)))] }
        let toc = 48 + Int(bytes[48])
        bytes[toc + 4] = 0
        #expect(Self.code(bytes) == .malformed)
        // A header whose length is more than the bytes, or whose header length is too small.
        var long = Self.handMade { _ in [] }
        long[4] &+= 1
        #expect(Self.code(long) == .truncated)
        var small = Self.handMade { _ in [] }
        small[12] = 8
        #expect(Self.code(small) == .malformed)
        #expect(Self.code(Array("bool".utf8) + [UInt8](repeating: 0, count: 60)) == .notABookmark)
    }

    @Test func aChainOfTablesThatLoopsIsRefused() {
        var bytes = Self.handMade { _ in [] }
        let toc = 48 + Int(bytes[48])
        // The TOC's "next" word points back at itself.
        bytes[toc + 12] = bytes[48]
        #expect(Self.code(bytes) == .malformed)
    }

    @Test func anArrayThatHoldsItselfStopsAtTheDepthLimit() {
        let bytes = Self.handMade { w in
            // The array's one offset is its own.
            let at = w.record(type: 0x0601, bytes: [0, 0, 0, 0])
            return [(UInt32(0x1004), at)]
        }
        var patched = bytes
        let arrayOffset = 4   // the first record after the TOC-offset word
        patched[48 + arrayOffset + 8] = UInt8(arrayOffset)
        #expect(Self.code(patched) == .limitExceeded)
    }

    @Test func sharedArraysThatExpandPastTheValueLimitAreRefused() {
        // Twenty levels of an array holding the level below twice: 2^20 records from a few hundred bytes.
        let bytes = Self.handMade { w in
            var below = w.record(.bool(true))
            for _ in 0..<20 { below = w.record(type: 0x0601, bytes: BookmarkWriter.word(below) + BookmarkWriter.word(below)) }
            return [(UInt32(0x1004), below)]
        }
        var options = BookmarkReadOptions()
        options.maximumValueCount = 100_000
        #expect(Self.code(bytes, options: options) == .limitExceeded)
        options.maximumValueCount = 3_000_000
        #expect(Self.code(bytes, options: options) == nil)
    }

    @Test func recordsOfUnknownTypesOrOddLengthsAreKeptRaw() throws {
        let bytes = Self.handMade { w in
            [(UInt32(0x1), w.record(type: 0x0303, bytes: [1, 2, 3])),            // a 3-byte SInt32
             (UInt32(0x2), w.record(type: 0x0400, bytes: [0, 0, 0, 0])),         // a 4-byte date
             (UInt32(0x3), w.record(type: 0x0801, bytes: [1, 2])),               // a 2-byte UUID
             (UInt32(0x4), w.record(type: 0x1234, bytes: [9])),                  // type 0x1200
             (UInt32(0x5), w.record(type: 0x0101, bytes: [0xFF, 0xFE]))]         // a string that is not UTF-8
        }
        let entries = try Bookmark(data: Data(bytes)).tables[0].entries
        #expect(entries.map(\.value) == [.raw(type: 0x0303, bytes: Data([1, 2, 3])), .raw(type: 0x0400, bytes: Data([0, 0, 0, 0])),
                                         .raw(type: 0x0801, bytes: Data([1, 2])), .raw(type: 0x1234, bytes: Data([9])),
                                         .raw(type: 0x0101, bytes: Data([0xFF, 0xFE]))])
    }

    @Test func errorsSayWhatAndWhere() {
        let error = BookmarkError(.malformed, "a record at offset 9999 runs past the end of the bookmark (560 bytes)", offset: 72,
                                  entry: "table 1, key 0x1004")
        #expect(error.description == "a record at offset 9999 runs past the end of the bookmark (560 bytes) at byte 72 (table 1, key 0x1004)")
    }
}
