import Foundation
import PropertyList

/// `Z_METADATA.Z_PLIST` of a plain Core Data SQLite store, as a binary property list: the keys
/// Core Data writes in its order, which the fixtures that need no more share (their framework
/// version, entity hashes and store UUID differ).
enum StoreMetadataPlist {
    static func data(frameworkVersion: Int, hashes: PropertyListDictionary, storeUUID: UUID) -> Data {
        var d = PropertyListDictionary()
        d.append(key: "NSPersistenceFrameworkVersion", value: .integer(PropertyListInteger(frameworkVersion)))
        d.append(key: "NSStoreModelVersionHashes", value: .dictionary(hashes))
        d.append(key: "NSStoreModelVersionHashesVersion", value: .integer(PropertyListInteger(3)))
        d.append(key: "NSStoreModelVersionIdentifiers", value: .array([""]))
        d.append(key: "NSStoreType", value: "SQLite")
        d.append(key: "NSStoreUUID", value: .string(storeUUID.uuidString))
        return BinaryPropertyListWriter().write(.dictionary(d))
    }
}
