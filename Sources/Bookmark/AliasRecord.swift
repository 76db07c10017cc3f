import Foundation

/// A classic Mac OS alias record (`AliasRecord`, versions 2 and 3), as the Alias Manager wrote
/// it and as bookmarks (key `0xFE00`), Dock and Finder preferences (`_CFURLAliasData`) and alias
/// files still carry it: a fixed big-endian part naming the volume and target, then tagged
/// extra fields (the POSIX path, Unicode names, high-resolution dates…) up to a tag of -1.
///
/// Dates are given as seconds since 2001-01-01 UTC, like every other date in Archivist, though
/// the record counts from 1904.
public struct AliasRecord: Sendable, Hashable {
    /// The four bytes of application information at the start (usually zero).
    public var applicationInfo: Data
    /// 2 or 3.
    public var version: Int
    /// 0 a file, 1 a folder.
    public var kind: Int
    public var volumeName: String
    public var volumeCreationDate: Double
    /// `H+`, `BD`… in version 2; four characters in version 3.
    public var fileSystemType: String
    /// 0 fixed disk, 1 network disk, 2…4 floppies, 5 ejectable.
    public var diskType: Int
    public var parentDirectoryID: UInt32
    public var fileName: String
    public var fileID: UInt32
    public var fileCreationDate: Double
    /// The target's creator and type codes (version 2 only).
    public var creatorCode: String?
    public var typeCode: String?
    public var levelsFrom: Int?
    public var levelsTo: Int?
    public var volumeAttributes: UInt32
    /// Tag 0: the name of the folder holding the target.
    public var folderName: String?
    /// Tag 1: the directory IDs from the target's folder up.
    public var directoryIDs: [UInt32]?
    /// Tag 2: the Carbon (colon-separated) path.
    public var carbonPath: String?
    /// Tag 18: the target's POSIX path, from the volume's root.
    public var posixPath: String?
    /// Tag 19: the volume's mount point.
    public var volumeMountPoint: String?
    /// Tag 20: the alias of the disk image the volume lives on.
    public var diskImage: Box?
    /// Tags 3, 4, 5: the AppleShare zone, server and user name.
    public var appleShareZone: String?
    public var appleShareServer: String?
    public var appleShareUser: String?
    /// Tag 21: the length of the user's home folder prefix in the path.
    public var userHomePrefixLength: Int?
    /// Every other tag, with its bytes.
    public var otherTags: [Tag]

    /// A tag this reader does not name.
    public struct Tag: Sendable, Hashable {
        public var tag: Int
        public var bytes: Data

        public init(tag: Int, bytes: Data) {
            self.tag = tag
            self.bytes = bytes
        }
    }

    /// An alias inside an alias (tag 20), boxed so the type has a size.
    public final class Box: Sendable, Hashable {
        public let record: AliasRecord
        init(_ record: AliasRecord) { self.record = record }
        public static func == (a: Box, b: Box) -> Bool { a.record == b.record }
        public func hash(into hasher: inout Hasher) { hasher.combine(record) }
    }

    /// The seconds from 1904-01-01 to 2001-01-01.
    static let epochOffset: Double = 3_061_152_000

    /// Reads an alias record.
    ///
    /// - Throws: `BookmarkError`: `.notABookmark` when the record's length or version are not an
    ///   alias record's, `.truncated` when a field runs past the bytes, `.malformed` for a tag
    ///   list that does not end with -1.
    public init(data: Data) throws(BookmarkError) {
        try self.init(data: data, depth: 0)
    }

    init(data: Data, depth: Int) throws(BookmarkError) {
        self = try data.withUnsafeBytesTyped { raw throws(BookmarkError) in
            var reader = AliasRecordReader(bytes: raw, depth: depth)
            return try reader.read()
        }
    }

    /// Whether `data` is exactly one alias record: its length field equal to the bytes' count,
    /// version 2 or 3, kind 0 or 1, and a tag list that ends with -1 at the record's end.
    public static func isAliasRecord(_ data: Data) -> Bool {
        guard data.count >= 58, data.count <= 0xFFFF else { return false }
        let b = data.startIndex
        let size = Int(data[b + 4]) << 8 | Int(data[b + 5])
        let version = Int(data[b + 6]) << 8 | Int(data[b + 7])
        guard size == data.count, version == 2 || version == 3 else { return false }
        guard let record = try? AliasRecord(data: data) else { return false }
        return record.kind == 0 || record.kind == 1
    }
}
