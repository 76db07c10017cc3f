import Foundation

/// What the well-known keys of a bookmark's first table hold, by name.
///
/// Everything here is read from `Bookmark.tables`; entries of other keys, and well-known keys
/// whose record is not of the expected type, are left in the tables (`otherEntries`).
public struct BookmarkFields: Sendable, Hashable {
    /// `/` and the path components joined: the target's path when the bookmark was made.
    public var path: String?
    /// `0x1004`: each component of the target's path.
    public var pathComponents: [String]?
    /// `0x1005`: the file ID (inode number) of each component.
    public var fileIDs: [Int64]?
    /// `0x1040`: the target's creation date, seconds since 2001-01-01 UTC.
    public var fileCreationDate: Double?
    /// `0x1010`: the target's resource property flags (regular file, directory, package…) and
    /// which of them are valid.
    public var resourceProperties: BookmarkPropertyFlags?
    /// `0x2002`: the volume's mount point as a path.
    public var volumePath: String?
    /// `0x2005`: the volume's URL.
    public var volumeURL: String?
    /// `0x2010`.
    public var volumeName: String?
    /// `0x2011`: the volume's UUID, written as text.
    public var volumeUUID: String?
    /// `0x2012`: the volume's capacity in bytes.
    public var volumeCapacity: Int64?
    /// `0x2013`: seconds since 2001-01-01 UTC.
    public var volumeCreationDate: Double?
    /// `0x2020`: the volume's property flags (local, internal, ejectable…) and which are valid.
    public var volumeProperties: BookmarkPropertyFlags?
    /// `0x2030`: whether the volume is the root file system.
    public var volumeIsRoot: Bool?
    /// `0x2050`: the URL the volume is mounted at.
    public var volumeMountPoint: String?
    /// `0xC001`: the index in `pathComponents` of the folder that holds the target.
    public var containingFolderIndex: Int64?
    /// `0xC011`: the name of the user who made the bookmark.
    public var creatorUserName: String?
    /// `0xC012`: that user's UID.
    public var creatorUID: Int64?
    /// `0xD001`: whether the URL bookmarked was a file reference URL.
    public var wasFileReference: Bool?
    /// `0xD010`: the `NSURL.BookmarkCreationOptions` it was made with.
    public var creationOptions: BookmarkCreationOptions?
    /// `0xF017`: the target's name as the Finder shows it.
    public var localizedName: String?
    /// `0xF030`: when the bookmark was made, seconds since 2001-01-01 UTC.
    public var creationTime: Double?
    /// `0xF080` and `0xF081`: the sandbox extensions a security-scoped bookmark carries.
    public var securityExtensions: [BookmarkSecurityExtension]
    /// `0xFE00`: a classic alias record kept inside the bookmark, read when it is one.
    public var aliasRecord: AliasRecord?

    public init(_ bookmark: Bookmark) {
        let table = bookmark.tables.first?.entries ?? []
        func value(_ key: BookmarkKey) -> BookmarkValue? { table.first(where: { $0.key == key })?.value }
        func string(_ key: BookmarkKey) -> String? { value(key)?.stringValue }
        func integer(_ key: BookmarkKey) -> Int64? { value(key)?.integerValue }
        func date(_ key: BookmarkKey) -> Double? {
            if case .date(let d)? = value(key) { return d }
            return nil
        }
        func bool(_ key: BookmarkKey) -> Bool? {
            if case .bool(let b)? = value(key) { return b }
            return nil
        }
        func data(_ key: BookmarkKey) -> Data? {
            if case .data(let d)? = value(key) { return d }
            return nil
        }
        if case .array(let parts)? = value(.pathComponents) {
            let names = parts.compactMap(\.stringValue)
            if names.count == parts.count {
                pathComponents = names
                path = "/" + names.joined(separator: "/")
            }
        }
        if case .array(let ids)? = value(.fileIDs) {
            let numbers = ids.compactMap(\.integerValue)
            if numbers.count == ids.count { fileIDs = numbers }
        }
        fileCreationDate = date(.fileCreationDate)
        resourceProperties = data(.resourceProperties).flatMap { BookmarkPropertyFlags($0, names: BookmarkPropertyFlags.resourceNames) }
        volumePath = string(.volumePath)
        volumeURL = value(.volumeURL)?.urlString
        volumeName = string(.volumeName)
        volumeUUID = string(.volumeUUID)
        volumeCapacity = integer(.volumeCapacity)
        volumeCreationDate = date(.volumeCreationDate)
        volumeProperties = data(.volumeProperties).flatMap { BookmarkPropertyFlags($0, names: BookmarkPropertyFlags.volumeNames) }
        volumeIsRoot = bool(.volumeIsRoot)
        volumeMountPoint = value(.volumeMountPoint)?.urlString
        containingFolderIndex = integer(.containingFolderIndex)
        creatorUserName = string(.creatorUserName)
        creatorUID = integer(.creatorUID)
        wasFileReference = bool(.wasFileReference)
        creationOptions = integer(.creationOptions).map { BookmarkCreationOptions(rawValue: UInt64(bitPattern: $0)) }
        localizedName = string(.localizedName)
        creationTime = date(.creationTime)
        securityExtensions = [BookmarkKey.readWriteSecurityExtension, .readOnlySecurityExtension].compactMap { key in
            data(key).map { BookmarkSecurityExtension($0, readOnly: key == .readOnlySecurityExtension) }
        }
        aliasRecord = data(.aliasData).flatMap { try? AliasRecord(data: $0) }
    }

    /// The keys `BookmarkFields` names; entries of any other key are the bookmark's other fields.
    public static let namedKeys: Set<BookmarkKey> = [
        .pathComponents, .fileIDs, .fileCreationDate, .resourceProperties, .volumePath, .volumeURL, .volumeName, .volumeUUID,
        .volumeCapacity, .volumeCreationDate, .volumeProperties, .volumeIsRoot, .volumeMountPoint, .containingFolderIndex,
        .creatorUserName, .creatorUID, .wasFileReference, .creationOptions, .localizedName, .creationTime,
        .readWriteSecurityExtension, .readOnlySecurityExtension,
    ]
}
