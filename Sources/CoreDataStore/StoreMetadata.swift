import Foundation
import PropertyList

/// The row of `Z_METADATA`: what Core Data records about the store and the model it was
/// written with.
///
/// `Z_PLIST` is a binary property list. Core Data checks `NSStoreModelVersionHashes` against the
/// app's model to decide whether the store needs a model migration, so Archivist reads it and
/// never writes it: converting a Transformable attribute's values does not change the model.
public struct StoreMetadata: Sendable, Hashable {
    /// `Z_VERSION`: the version of the metadata row (1 in current stores).
    public var version: Int64?
    /// `Z_UUID`: the store UUID as Core Data first wrote it.
    public var uuid: String?
    /// `NSStoreType`: "SQLite".
    public var storeType: String?
    /// `NSStoreUUID`: the identifier in every object URI (`x-coredata://<UUID>/BowTie/p1`).
    public var storeUUID: String?
    /// `NSStoreModelVersionHashes`: entity name → the 32-byte hash of its model version.
    public var modelVersionHashes: [String: Data]
    /// `NSStoreModelVersionHashesVersion`: 3 in current stores.
    public var modelVersionHashesVersion: Int64?
    /// `NSPersistenceFrameworkVersion`: the Core Data build that last saved the store.
    public var frameworkVersion: Int64?
    /// The whole `Z_PLIST`, for keys not named above.
    public var plist: PropertyListValue

    public init(version: Int64? = nil, uuid: String? = nil, plist: PropertyListValue) {
        self.version = version
        self.uuid = uuid
        self.plist = plist
        let dictionary = plist.dictionaryValue
        storeType = dictionary?["NSStoreType"]?.stringValue
        storeUUID = dictionary?["NSStoreUUID"]?.stringValue
        modelVersionHashesVersion = dictionary?["NSStoreModelVersionHashesVersion"]?.integerValue?.int64Value
        frameworkVersion = dictionary?["NSPersistenceFrameworkVersion"]?.integerValue?.int64Value
        var hashes: [String: Data] = [:]
        for (key, value) in dictionary?["NSStoreModelVersionHashes"]?.dictionaryValue ?? PropertyListDictionary() {
            if let name = key.stringValue, let data = value.dataValue { hashes[name] = data }
        }
        modelVersionHashes = hashes
    }

    /// Entity names the model hashes cover, sorted.
    public var hashedEntityNames: [String] { modelVersionHashes.keys.sorted() }
}
