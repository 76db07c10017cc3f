import CoreDataModel
import CoreDataStore
import Foundation
import GRDB
import KeyedArchive
import PropertyList
import TypedStreamFixtures

/// A Core Data store of an old macOS app whose Transformable attributes name
/// `NSUnarchiveFromData`, the NSArchiver transformer: every value is a typedstream, which no
/// secure unarchiver reads. The model is `LegacyNotesModel`; the store has its own
/// `Z_MODELCACHE`, `Z_METADATA` and `Z_PRIMARYKEY`, laid out as `PaletteStoreFixture` lays
/// Palette's out.
///
/// Rows of `ZNOTE`, by `Z_PK` (from 1):
/// - `title`: "Note N";
/// - `textColor`: an NSColor, calibrated RGB (`LegacyNotesStoreFixture.color(_:)`), every row
///   but every 9th (NULL);
/// - `body`: an NSMutableAttributedString of the note's text (`text(_:)`), with a bold run and a
///   link on every 4th note;
/// - `tags`: an NSArray of NSString (`tags(_:)`).
public struct LegacyNotesStoreFixture: Sendable {
    public var noteCount: Int
    /// Leave `body` and `tags` NULL: a store whose only values are colors (the benchmark's).
    public var colorsOnly = false
    /// Write each color as the keyed archive macOS writes of it (`NSColorSpace` 1, `NSRGB`)
    /// instead of a typedstream: the same store after `migrate --to archive`, or an app that
    /// used NSKeyedUnarchiveFromData.
    public var keyedColors = false
    public var storeUUID = UUID(uuidString: "7E3D2C1B-4A59-4F6E-8D7C-0B1A2E3F4C5D") ?? UUID()

    public init(noteCount: Int = 30, colorsOnly: Bool = false, keyedColors: Bool = false) {
        self.noteCount = noteCount
        self.colorsOnly = colorsOnly
        self.keyedColors = keyedColors
    }

    public static func hasColor(_ pk: Int) -> Bool { pk % 9 != 0 }

    /// Note `pk`'s color, components in [0, 1] that a float holds exactly.
    public static func color(_ pk: Int) -> (red: Float, green: Float, blue: Float, alpha: Float) {
        (Float(pk % 4) / 4, Float(pk % 8) / 8, Float(pk % 2) / 2, 1)
    }

    /// Note `pk`'s text; a multiple of 3 holds an emoji (two UTF-16 units) to keep runs honest.
    public static func text(_ pk: Int) -> String {
        pk % 3 == 0 ? "Note \(pk) 👋 call Ana at 5pm" : "Note \(pk): buy milk and bread"
    }

    public static func tags(_ pk: Int) -> [String] { ["home", "n\(pk)"] }

    /// Writes the store at `path`, replacing any store there.
    public func write(to path: String) throws(StoreError) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let model = LegacyNotesModel.model
        let cache: Data
        do {
            cache = try ManagedObjectModelArchiver().modelCache(model)
        } catch {
            throw StoreError(.invalidRequest, "cannot archive the model: \(error)", path: path)
        }
        let uuid = storeUUID
        let count = noteCount
        let (colorsOnly, keyedColors) = (self.colorsOnly, self.keyedColors)
        try FixtureSQLite.run(path) {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in
                try PaletteStoreFixture.createTables(db, model: model)
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (1, 'Note', 0, ?)", arguments: [count])
                    try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                   arguments: [uuid.uuidString, Self.metadataPlist(uuid: uuid)])
                    try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [cache])
                    for pk in 1 ... max(1, count) where count > 0 {
                        try db.execute(sql: "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZTAGS, ZTEXTCOLOR) VALUES (?, 1, 1, ?, ?, ?, ?)",
                                       arguments: [pk, "Note \(pk)", colorsOnly ? nil : Self.body(pk), colorsOnly ? nil : Self.tagsBlob(pk),
                                                   !Self.hasColor(pk) ? nil : keyedColors ? try Self.keyedColorBlob(pk) : Self.colorBlob(pk)])
                    }
                    return .commit
                }
            }
        }
    }

    typealias F = FoundationTypedStreamObjects

    static func stream(_ root: TypedStreamObjectSpec) -> Data {
        var writer = TypedStreamWriter()
        writer.writeRoot(root)
        return writer.data
    }

    /// An NSColor as `NSUnarchiveFromData` stores it.
    public static func colorBlob(_ pk: Int) -> Data {
        let c = color(pk)
        return stream(F.color(kind: 1, components: [c.red, c.green, c.blue, c.alpha]))
    }

    /// The same color as macOS's NSKeyedArchiver writes it: `NSColorSpace` 1 and `NSRGB`.
    public static func keyedColorBlob(_ pk: Int) throws -> Data {
        let c = color(pk)
        var b = KeyedArchiveBuilder()
        let text = [c.red, c.green, c.blue].map { String(format: "%.10g", Double($0)) }.joined(separator: " ")
        let root = b.object("NSColor", fields: [
            ArchivedField(key: "NSColorSpace", value: .inline(.integer(PropertyListInteger(1)))),
            ArchivedField(key: "NSRGB", value: .inline(.data(Data(text.utf8) + [0]))),
        ])
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    /// The note's NSMutableAttributedString: one plain run, or on every 4th note a bold word and
    /// a link, as a text view writes them.
    public static func body(_ pk: Int) -> Data {
        let text = text(pk)
        let plain = F.dictionary([])
        guard pk % 4 == 0 else {
            return stream(F.attributedString(F.mutableString(text), runs: [(plain, text.utf16.count)]))
        }
        let bold = F.dictionary([(F.string("NSFont"), F.string("Helvetica-Bold"))])
        let link = F.dictionary([(F.string("NSLink"), F.url("https://example.com/\(pk)"))])
        let length = text.utf16.count
        return stream(F.attributedString(F.mutableString(text), runs: [(bold, 4), (plain, length - 8), (link, 4)]))
    }

    public static func tagsBlob(_ pk: Int) -> Data {
        stream(F.array(tags(pk).map { F.string($0) }))
    }

    static func metadataPlist(uuid: UUID) -> Data {
        var hashes = PropertyListDictionary()
        hashes.append(key: "Note", value: .data(Data(repeating: 0x4E, count: 32)))
        return StoreMetadataPlist.data(frameworkVersion: 866, hashes: hashes, storeUUID: uuid)
    }
}

/// The model of an old macOS notes app: one `Note` entity whose three Transformable attributes
/// name `NSUnarchiveFromData` (`NSUnarchiveFromDataTransformerName`), as Xcode's model editor
/// wrote them before NSKeyedArchiver.
public enum LegacyNotesModel {
    public static let model = ManagedObjectModel(entities: [
        EntityDescription(name: "Note", representedClassName: "Note", attributes: [
            AttributeDescription(name: "body", attributeType: .transformable, valueTransformerName: "NSUnarchiveFromData"),
            AttributeDescription(name: "tags", attributeType: .transformable, valueTransformerName: "NSUnarchiveFromData"),
            AttributeDescription(name: "textColor", attributeType: .transformable, valueTransformerName: "NSUnarchiveFromData"),
            AttributeDescription(name: "title", attributeType: .string, valueClassName: "NSString"),
        ]),
    ], versionIdentifiers: [""])
}
