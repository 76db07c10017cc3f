import CoreDataStore
import Foundation
import FixtureSupport
import GRDB
import KeyedArchive
import PropertyList

/// Builds a SQLite store laid out the way Core Data writes the BowTie model of "Core Data by
/// Tutorials", with as many rows as asked: the fixture for tests, for the benchmark and for
/// users who want a big store to try `scan` and `migrate` on.
///
/// The layout follows what Core Data's SQLite store writes:
/// - `ZBOWTIE` with `Z_PK`, `Z_ENT`, `Z_OPT`, then the attributes as `Z<NAME>` columns, grouped
///   by type as Core Data orders them: integers (isFavorite, timesWorn), the date (lastWorn,
///   TIMESTAMP holding seconds since 2001 as a REAL), the double (rating, FLOAT), strings
///   (name, searchKey, url), BLOBs (id, photoData, tintColor);
/// - `id` is a UUID attribute, which Core Data stores as its 16 bytes;
/// - `url` is a URI attribute, which Core Data stores as the URL's absolute string (VARCHAR);
/// - `photoData` is Binary Data with "Allows External Storage", as the book sets it, so every
///   value carries Core Data's one-byte header: `0x01` + PNG bytes inline, or `0x02` + a file
///   name for the few photos kept in `.<store>_SUPPORT/_EXTERNAL_DATA/`;
/// - `tintColor` is a Transformable UIColor, archived as iOS archives it
///   (`KeyedArchiveBuilder.uiColor`); every `nullTintColorEvery`-th row is NULL;
/// - `Z_PRIMARYKEY` (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) and `Z_METADATA` (Z_VERSION, Z_UUID, Z_PLIST
///   as a binary plist with NSStoreType, NSStoreUUID, NSStoreModelVersionHashes and the rest);
/// - incremental auto-vacuum and WAL journaling, as Core Data sets them.
///
/// Not reproduced: `Z_MODELCACHE` (a compressed compiled model that only Core Data reads) and
/// the real model version hash, which is a digest of Core Data's entity description; the
/// fixture's 32 bytes are derived from the attribute list instead.
public struct BowTieStoreFixture: Sendable {
    /// A tint color's components, as the migrated JSON spells them.
    public typealias Color = MigratedColor

    /// Rows in `ZBOWTIE`, numbered from 1 as `Z_PK`.
    public var rowCount: Int
    /// Every n-th row has a NULL tintColor (0: none).
    public var nullTintColorEvery: Int = 10
    /// Every n-th row has a photo (0: none); the others are NULL.
    public var photoEvery: Int = 3
    /// How many of the photos are kept as external files rather than inline.
    public var externalPhotoCount: Int = 2
    /// Rows whose tintColor is a damaged archive (cut in half), for failure tests.
    public var corruptTintColorRows: Set<Int> = []
    /// `NSStoreUUID` and `Z_UUID`.
    public var storeUUID: UUID = UUID(uuidString: "5C1A3B2E-7D4F-4E21-9A8B-2F0C6D1E3B47") ?? UUID()
    /// Rows per transaction while writing.
    public var insertBatchSize: Int = 50_000
    /// Every row's tintColor (and photo) a color of its own instead of one of a 4,096-color
    /// palette: the shape of columns where no value repeats (archives holding timestamps, UUIDs
    /// or user text), where remembering repeated values (`RepeatedValueMemo`) gives nothing.
    /// Distinct for the first 2^24 rows.
    public var distinctColors: Bool = false

    public init(rowCount: Int) {
        self.rowCount = rowCount
    }

    /// The entity's number in `Z_PRIMARYKEY` and every row's `Z_ENT`.
    public static let entityID: Int64 = 1

    /// The schema Core Data creates for the BowTie entity.
    public static let schema = """
        CREATE TABLE ZBOWTIE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISFAVORITE INTEGER, ZTIMESWORN INTEGER, \
        ZLASTWORN TIMESTAMP, ZRATING FLOAT, ZNAME VARCHAR, ZSEARCHKEY VARCHAR, ZURL VARCHAR, ZID BLOB, ZPHOTODATA BLOB, ZTINTCOLOR BLOB );
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        """

    /// The tint color of row `pk` (from 1), or nil when the row's tintColor is NULL or damaged.
    public func tintColor(row pk: Int) -> Color? {
        if nullTintColorEvery > 0, pk % nullTintColorEvery == 0 { return nil }
        if corruptTintColorRows.contains(pk) { return nil }
        return distinctColors ? Self.distinctColor(row: pk) : Self.color(index: Self.paletteIndex(pk))
    }

    /// The color of row `pk` when every row has its own: one 8-bit step per channel (float32
    /// components, as UIColor keeps them), so no two rows below 2^24 share one.
    static func distinctColor(row pk: Int) -> Color {
        func channel(_ shift: Int) -> Double { Double(Float(Double((pk >> shift) & 0xFF) / 255)) }
        return Color(red: channel(0), green: channel(8), blue: channel(16), alpha: 1)
    }

    /// One of 4,096 colors, with float32 components as UIColor keeps them.
    static func color(index: Int) -> Color {
        func channel(_ shift: Int) -> Double { Double(Float(Double((index >> shift) & 0xF) / 15)) }
        let alpha = index % 7 == 0 ? Double(Float(0.5)) : 1
        return Color(red: channel(0), green: channel(4), blue: channel(8), alpha: alpha)
    }

    /// The palette entry of a row: a multiplicative hash, so neighbouring rows differ.
    static func paletteIndex(_ pk: Int) -> Int { (pk &* 2_654_435_761) & 0xFFF }

    /// Writes the store to `path`.
    ///
    /// - Parameter replacing: remove an existing store (and its `-wal`, `-shm` and support
    ///   folder) first; otherwise an existing file is an error.
    /// - Throws: `StoreError` when the file exists (without `replacing`) or a write fails.
    public func write(to path: String, replacing: Bool = false) throws(StoreError) {
        guard rowCount >= 0 else { throw StoreError(.invalidRequest, "the row count must not be negative", path: path) }
        let url = URL(fileURLWithPath: path)
        let support = ExternalBinaryStorage.directory(store: url)
        if FileManager.default.fileExists(atPath: path) {
            guard replacing else { throw StoreError(.invalidRequest, "the file exists; remove it first", path: path) }
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try? FileManager.default.removeItem(at: support.deletingLastPathComponent())
        }
        var archives = ArchiveCache()
        try FixtureSQLite.run(path) {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                // Core Data turns on incremental auto-vacuum before it creates any table, then WAL.
                try db.execute(sql: "PRAGMA auto_vacuum = 2")
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = OFF") // this connection only: speed
                try db.execute(sql: Self.schema)
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, 'BowTie', 0, ?)",
                               arguments: [Self.entityID, rowCount])
                try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                               arguments: [storeUUID.uuidString, metadataPlist()])
                let insert = try db.makeStatement(sql: """
                    INSERT INTO ZBOWTIE (Z_PK, Z_ENT, Z_OPT, ZISFAVORITE, ZTIMESWORN, ZLASTWORN, ZRATING, ZNAME, ZSEARCHKEY, \
                    ZURL, ZID, ZPHOTODATA, ZTINTCOLOR) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                var externalLeft = externalPhotoCount
                var pk = 1
                while pk <= rowCount {
                    let end = min(rowCount, pk + max(1, insertBatchSize) - 1)
                    try db.inTransaction {
                        for row in pk...end {
                            var photo: Data?
                            if photoEvery > 0, row % photoEvery == 0 {
                                let png = distinctColors ? Self.photo(Self.distinctColor(row: row)) : archives.photo(Self.paletteIndex(row))
                                if externalLeft > 0 {
                                    externalLeft -= 1
                                    let reference = ExternalBinaryStorage.Reference(fileName: Self.uuid(row, salt: 0xF11E).uuidString)
                                    try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
                                    try png.write(to: reference.fileURL(store: url))
                                    photo = ExternalBinaryStorage.framedReference(reference)
                                } else {
                                    photo = ExternalBinaryStorage.framedInline(png)
                                }
                            }
                            let tint: Data?
                            if corruptTintColorRows.contains(row) {
                                let whole = try archives.tint(Self.paletteIndex(row))
                                tint = whole.prefix(whole.count / 2)
                            } else if let color = tintColor(row: row), distinctColors {
                                tint = try Self.tintArchive(color)
                            } else if tintColor(row: row) == nil {
                                tint = nil
                            } else {
                                tint = try archives.tint(Self.paletteIndex(row))
                            }
                            let name = "\(Self.colorNames[row % Self.colorNames.count]) Bow Tie \(row)"
                            let uuid = Self.uuid(row, salt: 0xB0)
                            insert.setUncheckedArguments([
                                row, Self.entityID, row % 5 == 0, row % 40,
                                600_000_000.0 + Double(row) * 3_600.5, Double(row % 50) / 10,
                                name, String(name.prefix(1)), "https://en.wikipedia.org/wiki/Bow_tie?id=\(row)",
                                withUnsafeBytes(of: uuid.uuid) { Data($0) }, photo, tint,
                            ])
                            try insert.execute()
                        }
                        return .commit
                    }
                    pk = end + 1
                }
            }
            try queue.close()
        }
    }

    static let colorNames = ["Red", "Blue", "Green", "Orange", "Purple", "Black", "Yellow"]

    /// A deterministic version-4 UUID for a row.
    static func uuid(_ row: Int, salt: UInt64) -> UUID {
        var state = UInt64(truncatingIfNeeded: row) &* 0x9E37_79B9_7F4A_7C15 ^ salt
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let word = next()
            for i in 0..<8 { bytes[half * 8 + i] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(i))) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// `Z_PLIST`: the keys Core Data writes, as a binary property list.
    func metadataPlist() -> Data {
        var hashes = PropertyListDictionary()
        hashes.append(key: "BowTie", value: .data(Self.modelHash))
        var d = PropertyListDictionary()
        d.append(key: "NSAutoVacuumLevel", value: "2")
        d.append(key: "NSPersistenceFrameworkVersion", value: .integer(PropertyListInteger(1_341)))
        d.append(key: "NSPersistenceMaximumFrameworkVersion", value: .integer(PropertyListInteger(1_341)))
        d.append(key: "NSStoreModelVersionChecksumKey", value: .string(Self.modelHash.base64EncodedString()))
        d.append(key: "NSStoreModelVersionHashes", value: .dictionary(hashes))
        d.append(key: "NSStoreModelVersionHashesDigest", value: .string(Self.modelHash.prefix(24).base64EncodedString()))
        d.append(key: "NSStoreModelVersionHashesVersion", value: .integer(PropertyListInteger(3)))
        d.append(key: "NSStoreModelVersionIdentifiers", value: .array([""]))
        d.append(key: "NSStoreType", value: "SQLite")
        d.append(key: "NSStoreUUID", value: .string(storeUUID.uuidString))
        d.append(key: "_NSAutoVacuumLevel", value: "2")
        return BinaryPropertyListWriter().write(.dictionary(d))
    }

    /// 32 bytes standing in for the entity's version hash, derived from its attributes.
    static let modelHash: Data = {
        var bytes: [UInt8] = []
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in "BowTie:id,isFavorite,lastWorn,name,photoData,rating,searchKey,timesWorn,tintColor,url".utf8 {
            seed = (seed ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        for i in 0..<4 {
            let u = uuid(Int(truncatingIfNeeded: seed), salt: UInt64(i))
            withUnsafeBytes(of: u.uuid) { bytes.append(contentsOf: $0.prefix(8)) }
        }
        return Data(bytes)
    }()

    /// Archives and photos by palette index, built once each.
    struct ArchiveCache {
        var tints: [Int: Data] = [:]
        var photos: [Int: Data] = [:]

        mutating func tint(_ index: Int) throws -> Data {
            if let known = tints[index] { return known }
            let data = try BowTieStoreFixture.tintArchive(BowTieStoreFixture.color(index: index))
            tints[index] = data
            return data
        }

        mutating func photo(_ index: Int) -> Data {
            if let known = photos[index] { return known }
            let png = BowTieStoreFixture.photo(BowTieStoreFixture.color(index: index))
            photos[index] = png
            return png
        }
    }

    /// A tint color archived as iOS archives a UIColor.
    static func tintArchive(_ color: Color) throws -> Data {
        var builder = KeyedArchiveBuilder()
        let root = builder.uiColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
        return try KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)
    }

    /// An 8×8 PNG of the color.
    static func photo(_ color: Color) -> Data {
        TinyPNG.solid(width: 8, height: 8, red: UInt8(color.red * 255), green: UInt8(color.green * 255), blue: UInt8(color.blue * 255))
    }
}
