import Foundation
import KeyedArchive
import PropertyList

/// The fixture blobs and how each is made.
enum ArchiveFixtures {
    struct Fixture {
        var name: String
        var summary: String
        var data: Data
    }

    static func write(_ builder: KeyedArchiveBuilder, root: ArchivedValue) throws -> Data {
        try KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)
    }

    static func real(_ v: Double) -> ArchivedValue { .inline(.real(v)) }
    static func float32(_ v: Double) -> ArchivedValue { .inline(.real(Double(Float(v)))) }
    static func integer(_ v: Int) -> ArchivedValue { .inline(.integer(PropertyListInteger(v))) }

    static func all() throws -> [Fixture] {
        var fixtures: [Fixture] = []

        // A UIColor tint color, as `NSKeyedArchiver.archivedData(withRootObject: color,
        // requiringSecureCoding: true)` writes it on iOS.
        do {
            var b = KeyedArchiveBuilder()
            let color = b.uiColor(red: 0.176, green: 0.165, blue: 0.51, alpha: 1)
            fixtures.append(Fixture(name: "uicolor-tint.bplist", summary: "UIColor tint color (0.176, 0.165, 0.51, 1)",
                                    data: try write(b, root: color)))
        }

        // `class SerializableColor: NSObject, NSSecureCoding` in module Eventail, archived under
        // its mangled runtime name: colorSpace (0 sRGB, 1 Display P3) and Float components.
        do {
            var b = KeyedArchiveBuilder()
            let color = b.object("_TtC8Eventail17SerializableColor", chain: ["_TtC8Eventail17SerializableColor", "NSObject"], fields: [
                ArchivedField(key: "colorSpace", value: integer(1)),
                ArchivedField(key: "red", value: float32(0.9)),
                ArchivedField(key: "green", value: float32(0.2)),
                ArchivedField(key: "blue", value: float32(0.35)),
                ArchivedField(key: "alpha", value: float32(1)),
            ])
            fixtures.append(Fixture(name: "serializable-color-mangled.bplist",
                                    summary: "Eventail.SerializableColor (mangled name), Display P3",
                                    data: try write(b, root: color)))
        }

        // `class UserDetails: NSObject, NSCoding` with optional eyeColor, hairColor (String?) and
        // carsNumber (Int?); hairColor is nil, so its key is absent.
        do {
            var b = KeyedArchiveBuilder()
            let eye = b.string("green")
            let user = b.object("MyApp.UserDetails", chain: ["MyApp.UserDetails", "NSObject"], fields: [
                ArchivedField(key: "eyeColor", value: eye),
                ArchivedField(key: "carsNumber", value: integer(2)),
            ])
            fixtures.append(Fixture(name: "user-details-nscoding.bplist",
                                    summary: "MyApp.UserDetails with eyeColor and carsNumber, hairColor absent",
                                    data: try write(b, root: user)))
        }

        // `final class ConfigurationBox: NSObject, NSSecureCoding` holding a Codable struct as
        // JSON data under "unbox".
        do {
            var b = KeyedArchiveBuilder()
            let json = Data(##"{"theme":"dark","fontSize":14,"showsBadges":true,"accent":"#FF6600"}"##.utf8)
            let payload = b.data(json)
            let box = b.object("_TtC5MyApp16ConfigurationBox", chain: ["_TtC5MyApp16ConfigurationBox", "NSObject"], fields: [
                ArchivedField(key: "unbox", value: payload),
            ])
            fixtures.append(Fixture(name: "configuration-box-json.bplist",
                                    summary: "MyApp.ConfigurationBox holding JSON data under \"unbox\"",
                                    data: try write(b, root: box)))
        }

        // An NSURL relative to an App Group container URL, as a stripping transformer stores it.
        do {
            var b = KeyedArchiveBuilder()
            let base = b.url("file:///private/var/mobile/Containers/Shared/AppGroup/3F2504E0-4F89-11D3-9A0C-0305E82C3301/")
            let url = b.url("Documents/photo.jpg", base: base)
            fixtures.append(Fixture(name: "relative-url.bplist", summary: "NSURL Documents/photo.jpg relative to an App Group base",
                                    data: try write(b, root: url)))
        }

        // An object whose field points to itself.
        do {
            var b = KeyedArchiveBuilder()
            let node = b.reserve()
            let name = b.string("head")
            b.define(node, className: "MyApp.Node", chain: ["MyApp.Node", "NSObject"], fields: [
                ArchivedField(key: "name", value: name),
                ArchivedField(key: "next", value: node),
            ])
            fixtures.append(Fixture(name: "cycle-self-reference.bplist", summary: "MyApp.Node whose next is itself",
                                    data: try write(b, root: node)))
        }

        // A [String] written by the legacy default transformer: Foundation's own archiver.
        do {
            let data = try NSKeyedArchiver.archivedData(withRootObject: ["swift", "core data", "ünïcode"] as NSArray, requiringSecureCoding: false)
            fixtures.append(Fixture(name: "legacy-string-array.bplist", summary: "NSArray of NSString, by Foundation's NSKeyedArchiver",
                                    data: data))
        }

        // A Codable struct stored with PropertyListEncoder: a plain plist, not an archive.
        do {
            struct UserDetails: Codable {
                var eyeColor: String?
                var hairColor: String?
                var carsNumber: Int?
            }
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            let data = try encoder.encode(UserDetails(eyeColor: "brown", hairColor: "black", carsNumber: 1))
            fixtures.append(Fixture(name: "user-details-codable.bplist", summary: "PropertyListEncoder payload of struct UserDetails",
                                    data: data))
        }

        // image.pngData(): raw PNG bytes, a 2×1 RGBA image.
        fixtures.append(Fixture(name: "photo.png", summary: "raw PNG bytes (2×1), not an archive", data: Data(pngBytes)))

        // A note as an app might archive it, holding what a reader of a whole graph meets: a
        // date, a UIColor, a PNG and a whole keyed archive (the tint color above) in NSData, an
        // attachment referenced from two places, and an owner whose `note` leads back to the
        // root (a cycle). The HTML reports are tested on it.
        do {
            var b = KeyedArchiveBuilder()
            let note = b.reserve()
            let title = b.string("Groceries")
            let created = b.date(Date(timeIntervalSinceReferenceDate: 786_240_000))   // 2025-12-01T00:00:00Z
            let tint = b.uiColor(red: 0.176, green: 0.165, blue: 0.51, alpha: 1)
            let photo = b.data(Data(pngBytes))
            let nested = b.data(fixtures.first { $0.name == "uicolor-tint.bplist" }?.data ?? Data())
            let fileName = b.string("list.txt")
            let attachment = b.object("MyApp.Attachment", chain: ["MyApp.Attachment", "NSObject"], fields: [
                ArchivedField(key: "fileName", value: fileName),
            ])
            let attachments = b.array([photo, nested, attachment])
            let ownerName = b.string("Ada")
            let owner = b.object("MyApp.Person", chain: ["MyApp.Person", "NSObject"], fields: [
                ArchivedField(key: "name", value: ownerName),
                ArchivedField(key: "note", value: note),
            ])
            b.define(note, className: "MyApp.Note", chain: ["MyApp.Note", "NSObject"], fields: [
                ArchivedField(key: "title", value: title),
                ArchivedField(key: "created", value: created),
                ArchivedField(key: "tint", value: tint),
                ArchivedField(key: "attachments", value: attachments),
                ArchivedField(key: "pinned", value: attachment),
                ArchivedField(key: "owner", value: owner),
            ])
            fixtures.append(Fixture(name: "note-with-attachments.bplist",
                                    summary: "MyApp.Note: a date, a UIColor, a PNG and a keyed archive in data, a shared attachment, a cycle through its owner",
                                    data: try write(b, root: note)))
        }
        return fixtures
    }

    /// A valid 2×1 PNG (an orange and an indigo pixel): signature, IHDR, IDAT (zlib of two
    /// scanlines) and IEND, with correct CRCs.
    static let pngBytes: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, // signature
        0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0xF4, 0x22, 0x7F, 0x8A, // IHDR chunk: length, type, 13 bytes of data, CRC
        0x00, 0x00, 0x00, 0x11, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0x9F, 0xC6, 0xF0, 0x5F, 0x57, 0xAB, 0xE9, 0x3F, 0x00, 0x12, 0xFB, 0x04, 0x3D, 0x57, 0x33, 0xA8, 0xDF, // IDAT chunk: length, type, 17 bytes of data, CRC
        0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82, // IEND chunk: length, type, 0 bytes of data, CRC
    ]
}
