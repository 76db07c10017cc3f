/// The key of a table-of-contents entry: a number, or a string record's text.
public enum BookmarkKey: Sendable, Hashable, CustomStringConvertible {
    case number(UInt32)
    case string(String)

    /// `0x1004`, or the string itself.
    public var description: String {
        switch self {
        case .number(let n): "0x" + String(n, radix: 16)
        case .string(let s): s
        }
    }

    /// The name Archivist gives a well-known numeric key (`pathComponents`, `volumeUUID`…), as
    /// reverse-engineered descriptions of the format and CFURL's private header name them.
    public var name: String? {
        guard case .number(let n) = self else { return nil }
        return Self.names[n]
    }

    public static let url: BookmarkKey = .number(0x1003)
    public static let pathComponents: BookmarkKey = .number(0x1004)
    public static let fileIDs: BookmarkKey = .number(0x1005)
    public static let resourceProperties: BookmarkKey = .number(0x1010)
    public static let fileName: BookmarkKey = .number(0x1020)
    public static let fileID: BookmarkKey = .number(0x1030)
    public static let fileCreationDate: BookmarkKey = .number(0x1040)
    public static let tocPath: BookmarkKey = .number(0x2000)
    public static let volumePath: BookmarkKey = .number(0x2002)
    public static let volumeURL: BookmarkKey = .number(0x2005)
    public static let volumeName: BookmarkKey = .number(0x2010)
    public static let volumeUUID: BookmarkKey = .number(0x2011)
    public static let volumeCapacity: BookmarkKey = .number(0x2012)
    public static let volumeCreationDate: BookmarkKey = .number(0x2013)
    public static let volumeProperties: BookmarkKey = .number(0x2020)
    public static let volumeIsRoot: BookmarkKey = .number(0x2030)
    public static let volumeBookmark: BookmarkKey = .number(0x2040)
    public static let volumeMountPoint: BookmarkKey = .number(0x2050)
    public static let containingFolderIndex: BookmarkKey = .number(0xC001)
    public static let creatorUserName: BookmarkKey = .number(0xC011)
    public static let creatorUID: BookmarkKey = .number(0xC012)
    public static let wasFileReference: BookmarkKey = .number(0xD001)
    public static let creationOptions: BookmarkKey = .number(0xD010)
    public static let urlLengths: BookmarkKey = .number(0xE003)
    public static let localizedName: BookmarkKey = .number(0xF017)
    public static let iconData: BookmarkKey = .number(0xF020)
    public static let iconReference: BookmarkKey = .number(0xF021)
    public static let typeBindingData: BookmarkKey = .number(0xF022)
    public static let creationTime: BookmarkKey = .number(0xF030)
    public static let readWriteSecurityExtension: BookmarkKey = .number(0xF080)
    public static let readOnlySecurityExtension: BookmarkKey = .number(0xF081)
    public static let aliasData: BookmarkKey = .number(0xFE00)

    static let names: [UInt32: String] = [
        0x1003: "url", 0x1004: "pathComponents", 0x1005: "fileIDs", 0x1010: "resourceProperties", 0x1020: "fileName",
        0x1030: "fileID", 0x1040: "fileCreationDate", 0x2000: "tocPath", 0x2002: "volumePath", 0x2005: "volumeURL",
        0x2010: "volumeName", 0x2011: "volumeUUID", 0x2012: "volumeCapacity", 0x2013: "volumeCreationDate",
        0x2020: "volumeProperties", 0x2030: "volumeIsRoot", 0x2040: "volumeBookmark", 0x2050: "volumeMountPoint",
        0xC001: "containingFolderIndex", 0xC011: "creatorUserName", 0xC012: "creatorUID", 0xD001: "wasFileReference",
        0xD010: "creationOptions", 0xE003: "urlLengths", 0xF017: "localizedName", 0xF020: "iconData",
        0xF021: "iconReference", 0xF022: "typeBindingData", 0xF030: "creationTime",
        0xF080: "readWriteSecurityExtension", 0xF081: "readOnlySecurityExtension", 0xFE00: "aliasData",
    ]
}
