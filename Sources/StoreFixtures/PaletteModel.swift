import CoreDataModel
import Foundation

/// The model of the Palette fixture app, in two versions, declared here in Swift so that the
/// compiled fixtures (`Palette.momd`, the store's `Z_MODELCACHE`) and the hand-written source
/// (`Fixtures/models/Palette.xcdatamodeld`) are two independent spellings of one model.
///
/// Palette is a social app's groups of members, and each of its Transformable attributes is a
/// case the audit must tell apart:
/// - `Group.darkColor`: the app's own `UIColorValueTransformer`, custom class UIColor (the
///   transformer the Core Data articles teach);
/// - `Group.recentSearches`: no transformer at all (`[String]`, Core Data's insecure default);
/// - `Group.accent` (version 2): `NSSecureUnarchiveFromData` with a custom Swift class,
///   `Palette.SerializableColor`, outside its default list;
/// - `Group.previewImage` (version 2): transient, never stored.
///
/// Version 2 also adds two subentities, `Club` and `Team`, that both declare `badge`: in the
/// shared `ZGROUP` table Club's is `ZBADGE` and Team's `ZBADGE1`.
public enum PaletteModel {
    /// The version names, as `.momd` and `.xcdatamodeld` folders name them.
    public static let versionNames = ["Palette", "Palette 2"]

    public static let version1 = ManagedObjectModel(entities: [
        EntityDescription(name: "Group", representedClassName: "PaletteGroup", attributes: [
            AttributeDescription(name: "darkColor", attributeType: .transformable, valueTransformerName: "UIColorValueTransformer", valueClassName: "UIColor"),
            AttributeDescription(name: "name", attributeType: .string, isOptional: false, valueClassName: "NSString"),
            AttributeDescription(name: "recentSearches", attributeType: .transformable),
        ], relationships: [
            RelationshipDescription(name: "members", destinationEntity: "Member", inverseName: "group", isToMany: true),
        ]),
        EntityDescription(name: "Member", representedClassName: "PaletteMember", attributes: [
            AttributeDescription(name: "name", attributeType: .string, valueClassName: "NSString"),
        ], relationships: [
            RelationshipDescription(name: "group", destinationEntity: "Group", inverseName: "members", isToMany: false),
        ]),
    ], versionIdentifiers: [""])

    public static let version2 = ManagedObjectModel(entities: [
        EntityDescription(name: "Group", representedClassName: "PaletteGroup", attributes: [
            AttributeDescription(name: "accent", attributeType: .transformable, valueTransformerName: "NSSecureUnarchiveFromData",
                                 valueClassName: "Palette.SerializableColor"),
            AttributeDescription(name: "darkColor", attributeType: .transformable, valueTransformerName: "UIColorValueTransformer", valueClassName: "UIColor"),
            AttributeDescription(name: "name", attributeType: .string, isOptional: false, valueClassName: "NSString"),
            AttributeDescription(name: "previewImage", attributeType: .transformable, isTransient: true),
            AttributeDescription(name: "rating", attributeType: .integer16, isOptional: false, defaultValue: "0", valueClassName: "NSNumber"),
            AttributeDescription(name: "recentSearches", attributeType: .transformable),
        ], relationships: [
            RelationshipDescription(name: "members", destinationEntity: "Member", inverseName: "group", isToMany: true),
        ]),
        EntityDescription(name: "Club", representedClassName: "PaletteClub", parentEntity: "Group", attributes: [
            AttributeDescription(name: "badge", attributeType: .string, valueClassName: "NSString"),
            AttributeDescription(name: "founded", attributeType: .date, valueClassName: "NSDate"),
        ]),
        EntityDescription(name: "Team", representedClassName: "PaletteTeam", parentEntity: "Group", attributes: [
            AttributeDescription(name: "badge", attributeType: .string, valueClassName: "NSString"),
        ]),
        EntityDescription(name: "Member", representedClassName: "PaletteMember", attributes: [
            AttributeDescription(name: "avatar", attributeType: .binaryData, valueClassName: "NSData"),
            AttributeDescription(name: "name", attributeType: .string, valueClassName: "NSString"),
        ], relationships: [
            RelationshipDescription(name: "group", destinationEntity: "Group", inverseName: "members", isToMany: false),
        ]),
    ], versionIdentifiers: [""])

    public static var versions: [(name: String, model: ManagedObjectModel)] {
        [(versionNames[0], version1), (versionNames[1], version2)]
    }

    /// 32 bytes per entity standing in for Core Data's entity version hash (a digest of the
    /// entity description that only Core Data computes): derived from what the fixture
    /// declares, so versions differ where their entities differ.
    public static func versionHashes(_ model: ManagedObjectModel) -> [String: Data] {
        var out: [String: Data] = [:]
        for entity in model.entities {
            var text = "\(entity.name)|\(entity.parentEntity ?? "")|\(entity.isAbstract)"
            for attribute in model.allAttributes(of: entity.name) {
                text += "|a:\(attribute.name):\(attribute.attributeType.code):\(attribute.isOptional):\(attribute.isTransient)"
                text += ":\(attribute.valueTransformerName ?? ""):\(attribute.valueClassName ?? "")"
            }
            for relationship in model.lineage(of: entity.name).flatMap(\.relationships) {
                text += "|r:\(relationship.name):\(relationship.destinationEntity ?? ""):\(relationship.isToMany)"
            }
            var bytes: [UInt8] = []
            for lane in 0..<4 {
                var hash: UInt64 = 0xCBF2_9CE4_8422_2325 &+ UInt64(lane) &* 0x9E37_79B9_7F4A_7C15
                for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
                withUnsafeBytes(of: hash.bigEndian) { bytes.append(contentsOf: $0) }
            }
            out[entity.name] = Data(bytes)
        }
        return out
    }
}
