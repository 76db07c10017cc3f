import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
import PropertyList
import TypedStreamFixtures

/// A Messages database as macOS and iOS keep it (`chat.db`, `sms.db`): a `message` table whose
/// text is, for many rows, only in `attributedBody`, an NSMutableAttributedString written by
/// NSArchiver, with Messages' attribute keys (the part index on every run, an attachment's
/// transfer GUID on its U+FFFC, data detectors' results as keyed archives in NSData).
///
/// Rows, by `ROWID` (from 1):
/// - every row: `attributedBody` holds `text(_:)`; `text` holds it too on odd rows only (as on
///   newer systems, where `text` is often NULL);
/// - every 3rd row: a photo attachment, its own run over U+FFFC;
/// - every 4th row: a phone number, its run carrying `__kIMDataDetectedAttributeName` with a
///   keyed archive (DDScannerResult's layout: `$top` `dd-result`, `version`).
/// Not a Core Data store: plain SQLite, as Messages writes it.
public struct MessagesDatabaseFixture: Sendable {
    public var messageCount: Int

    public init(messageCount: Int = 12) {
        self.messageCount = messageCount
    }

    public static func hasAttachment(_ rowID: Int) -> Bool { rowID % 3 == 0 }
    public static func hasPhoneNumber(_ rowID: Int) -> Bool { rowID % 4 == 0 }

    /// The message's text as the attributed string holds it.
    public static func text(_ rowID: Int) -> String {
        var text = "Message \(rowID): see you at 6 ✨"
        if hasPhoneNumber(rowID) { text += " call 555-0100" }
        if hasAttachment(rowID) { text += " \u{FFFC}" }
        return text
    }

    public func write(to path: String) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE message (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, text TEXT, \
                handle_id INTEGER DEFAULT 0, date INTEGER, is_from_me INTEGER DEFAULT 0, attributedBody BLOB, cache_has_attachments INTEGER DEFAULT 0)
                """)
            try db.execute(sql: "CREATE TABLE handle (ROWID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, id TEXT NOT NULL, service TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO handle (id, service) VALUES ('+15555550100', 'iMessage')")
            for rowID in 1 ... max(1, messageCount) where messageCount > 0 {
                try db.execute(sql: """
                    INSERT INTO message (ROWID, guid, text, handle_id, date, is_from_me, attributedBody, cache_has_attachments) \
                    VALUES (?, ?, ?, 1, ?, ?, ?, ?)
                    """, arguments: [rowID, "GUID-\(rowID)", rowID % 2 == 1 ? Self.text(rowID) : nil, 700_000_000_000_000_000 + rowID,
                                     rowID % 2, try Self.attributedBody(rowID), Self.hasAttachment(rowID) ? 1 : 0])
            }
        }
    }

    typealias F = FoundationTypedStreamObjects

    /// The `attributedBody` of message `rowID`, as Messages archives it.
    public static func attributedBody(_ rowID: Int) throws -> Data {
        let text = text(rowID)
        let partKey = F.string("__kIMMessagePartAttributeName")
        let plain = F.dictionary([(partKey, F.number(0))])
        var runs: [(attributes: TypedStreamObjectSpec, length: Int)] = []
        var prefix = "Message \(rowID): see you at 6 ✨"
        runs.append((plain, prefix.utf16.count))
        if hasPhoneNumber(rowID) {
            let detected = F.dictionary([(partKey, F.number(0)), (F.string("__kIMDataDetectedAttributeName"), F.data(Array(try dataDetectorResult())))])
            runs.append((plain, 6))
            runs.append((detected, 8))
            prefix += " call 555-0100"
        }
        if hasAttachment(rowID) {
            let attachment = F.dictionary([(partKey, F.number(1)), (F.string("__kIMFileTransferGUIDAttributeName"), F.string("at_\(rowID)_PHOTO")),
                                           (F.string("__kIMFilenameAttributeName"), F.string("IMG_\(rowID).HEIC"))])
            runs.append((plain, 1))
            runs.append((attachment, 1))
        }
        var writer = TypedStreamWriter()
        writer.writeRoot(F.attributedString(F.mutableString(text), runs: runs))
        return writer.data
    }

    /// A data detector's result as Messages keeps it: a keyed archive whose `$top` has
    /// `dd-result` (a DDScannerResult) and `version`.
    static func dataDetectorResult() throws -> Data {
        var b = KeyedArchiveBuilder()
        let result = b.object("DDScannerResult", fields: [
            ArchivedField(key: "T", value: b.string("PhoneNumber")),
            ArchivedField(key: "MS", value: b.string("555-0100")),
            ArchivedField(key: "AR", value: b.string("{20, 8}")),
        ])
        var archive = b.archive(root: result)
        archive.top = [ArchivedField(key: "dd-result", value: result), ArchivedField(key: "version", value: .inline(.integer(PropertyListInteger(1))))]
        return try KeyedArchiveWriter().write(archive)
    }
}
