import CoreDataStore
import Foundation
import StoreFixtures
import GRDB
import Testing
@testable import Sweep

/// Databases in a swept folder are evidence: sweep reads them without changing a byte or adding
/// a file beside them, and still sees rows that only the -wal holds.
@Suite struct SweepDatabaseTests {
    static func folder(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-sweep-db-\(getpid())-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every file of a folder with its bytes and modification time.
    static func snapshot(_ folder: String) throws -> [String: (Data, Date)] {
        var files: [String: (Data, Date)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let path = folder + "/" + name
            let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date ?? .distantPast
            files[name] = (try Data(contentsOf: URL(fileURLWithPath: path)), modified)
        }
        return files
    }

    /// A BowTie store in WAL mode whose last rows are only in its -wal: copied, with the -wal,
    /// while the writing connection is still open, as an extraction of a running device holds it.
    static func storeWithRowsOnlyInTheWAL(in folder: String) throws {
        let scratch = try Self.folder("scratch")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try BowTieStoreFixture(rowCount: 10).write(to: scratch + "/BowTies.sqlite", replacing: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let queue = try DatabaseQueue(path: scratch + "/BowTies.sqlite", configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "UPDATE ZBOWTIE SET ZTINTCOLOR = (SELECT ZTINTCOLOR FROM ZBOWTIE WHERE Z_PK = 1) WHERE Z_PK = 10")
            try db.execute(sql: "UPDATE ZBOWTIE SET ZNAME = 'only in the wal' WHERE Z_PK = 10")
        }
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: scratch + "/BowTies.sqlite" + suffix, toPath: folder + "/BowTies.sqlite" + suffix)
        }
        try queue.close()
    }

    @Test func aStoreInAFolderIsReadWithoutChangingAByteOrAddingAFile() throws {
        let folder = try Self.folder("evidence")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.storeWithRowsOnlyInTheWAL(in: folder)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder + "/" + name)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let before = try Self.snapshot(folder)
        #expect(before["BowTies.sqlite-wal"].map { $0.0.count > 0 } == true, "the -wal holds rows")

        let temporary = try Self.folder("temporary")
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let report = try Sweeper(options: SweepOptions(jobs: 2, temporaryDirectory: temporary)).sweep([folder])

        let after = try Self.snapshot(folder)
        #expect(Set(after.keys) == Set(before.keys), "no file added or removed beside the store")
        for (name, (data, modified)) in before {
            #expect(after[name]?.0 == data, "\(name) unchanged")
            #expect(after[name]?.1 == modified, "\(name) not touched")
        }
        let store = try #require(report.items.first { $0.path == folder + "/BowTies.sqlite" })
        #expect(store.kind == .coreDataStore)
        // Row 10's tint color was set only in the -wal (the fixture leaves it empty).
        let walOnly = report.items.first { $0.path == folder + "/BowTies.sqlite#ZBOWTIE.ZTINTCOLOR[Z_PK=10]" }
        #expect(walOnly?.kind == .keyedArchive, "a row only the -wal holds is seen")
        #expect(!report.items.contains { $0.path.hasPrefix(folder + "/BowTies.sqlite-") }, "the -wal and -shm are not items")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the private copies are removed")
    }

    @Test func aDamagedDatabaseIsOneUnreadableRecord() throws {
        let folder = try Self.folder("damaged")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var bytes = Data("SQLite format 3\u{0}".utf8)
        bytes.append(Data(repeating: 0xEE, count: 4080))
        try bytes.write(to: URL(fileURLWithPath: folder + "/broken.db"))
        let report = try Sweeper(options: SweepOptions(jobs: 1)).sweep([folder])
        #expect(report.items.count == 1)
        let item = try #require(report.items.first)
        #expect(item.kind == .unreadable)
        #expect(item.format == nil)
        #expect(item.error?.hasPrefix("SQLite database that does not read: ") == true)
        #expect(item.error?.contains(NSTemporaryDirectory()) == false, "the private copy's path is not shown")
    }

    @Test func aDatabaseInsideATarIsReadWithItsWAL() throws {
        let folder = try Self.folder("tar")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/store"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        try Self.storeWithRowsOnlyInTheWAL(in: store)
        // The -wal comes first, as a tar of a folder in readdir order may put it.
        try ContainerBuilder.write(.tarGzip, to: folder + "/extraction.tar.gz", members: [
            ("private/var/BowTies.sqlite-wal", .file(store + "/BowTies.sqlite-wal")),
            ("private/var/BowTies.sqlite", .file(store + "/BowTies.sqlite")),
        ])
        let report = try Sweeper(options: SweepOptions(jobs: 2)).sweep([folder + "/extraction.tar.gz"])
        let base = folder + "/extraction.tar.gz!/private/var/BowTies.sqlite"
        #expect(report.items.first { $0.path == base }?.kind == .coreDataStore)
        #expect(report.items.first { $0.path == base + "#ZBOWTIE.ZTINTCOLOR[Z_PK=10]" }?.kind == .keyedArchive)
    }
}

/// A Messages database (`MessagesDatabaseFixture`): the text of every message is in its sweep
/// record, from the NSArchiver attributed string in `attributedBody`, and the keyed archives
/// inside its attributes are found too.
@Suite struct SweepMessagesTests {
    @Test func eachMessagesTextIsInItsRecord() throws {
        let folder = try SweepDatabaseTests.folder("messages")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try MessagesDatabaseFixture(messageCount: 12).write(to: folder + "/chat.db")
        let report = try Sweeper(options: SweepOptions(jobs: 2)).sweep([folder])
        let database = try #require(report.items.first { $0.path == folder + "/chat.db" })
        #expect(database.kind == .sqlite)
        for rowID in 1 ... 12 {
            let path = folder + "/chat.db#message.attributedBody[ROWID=\(rowID)]"
            let item = try #require(report.items.first { $0.path == path }, "ROWID \(rowID)")
            #expect(item.kind == .typedStream)
            #expect(item.verdict == .refused)
            #expect(item.text == MessagesDatabaseFixture.text(rowID))
            #expect(item.classes.map(\.name).contains("NSMutableAttributedString"))
            if MessagesDatabaseFixture.hasPhoneNumber(rowID) {
                let nested = report.items.first { $0.path.hasPrefix(path + "/") && $0.kind == .keyedArchive }
                #expect(nested?.classes.map(\.name).contains("DDScannerResult") == true, "ROWID \(rowID)")
            }
        }
        // The JSON record carries the text for a pipeline to read.
        let item = try #require(report.items.first { $0.path.hasSuffix("[ROWID=3]") })
        let record = try #require(item.jsonValue.dictionaryValue)
        #expect(record["kind"] == "typedStream")
        #expect(record["text"] == .string(MessagesDatabaseFixture.text(3)))
    }
}
