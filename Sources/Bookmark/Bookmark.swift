import Foundation

/// URL bookmark data, as `-[NSURL bookmarkDataWithOptions:…]` (`CFURLCreateBookmarkData`) writes
/// it, read into its tables of typed records without resolving anything.
///
/// The layout: the magic `book`, the total length, a version and the header's length; after the
/// header, the offset of the first table of contents (TOC). Each TOC lists (key, record offset)
/// pairs and the offset of the next TOC; each record is a length, a type and its bytes: strings,
/// data, CFNumbers, dates, booleans, arrays and dictionaries of other records, UUIDs, URLs and
/// null. Keys are numbers (`0x1004`, the path's components) or, with the high bit set, the offset
/// of a string record. Offsets count from the end of the header. Records of a type this reader
/// does not know are kept with their type and bytes (`BookmarkValue.raw`).
///
/// `fields` names what the well-known keys hold (path, volume, dates, file IDs, the
/// security-scope flags); every entry, known or not, stays in `tables`.
public struct Bookmark: Sendable, Hashable {
    public var header: BookmarkHeader
    /// The tables of contents in the order their chain links them. The first (identifier 1)
    /// describes the target; others describe, for instance, the disk image a volume lives on.
    public var tables: [BookmarkTable]

    public init(header: BookmarkHeader, tables: [BookmarkTable]) {
        self.header = header
        self.tables = tables
    }

    /// Reads bookmark data: the header and every TOC checked against the bytes first, then each
    /// record, with every offset, length and nesting checked.
    ///
    /// - Throws: `BookmarkError`: `.notABookmark` when the magic is missing, `.truncated` when
    ///   the bytes end before the length the header gives or a record runs past it, `.malformed`
    ///   with the byte offset of anything else, `.limitExceeded` when `options` stops it.
    public init(data: Data, options: BookmarkReadOptions = .default) throws(BookmarkError) {
        self = try data.withUnsafeBytesTyped { raw throws(BookmarkError) in
            var reader = try BookmarkReader(bytes: raw, options: options)
            return try reader.readBookmark()
        }
    }

    /// Whether `data` starts like bookmark data: the magic `book` (or `alis`, which older
    /// systems wrote with the same layout), then a header length of at least 16 bytes that is
    /// no more than the total length.
    public static func isBookmark(_ data: Data) -> Bool {
        data.withUnsafeBytes { BookmarkHeader.looksLikeHeader($0) }
    }

    /// The value of `key` in the first table that has it.
    public subscript(key: BookmarkKey) -> BookmarkValue? {
        for table in tables {
            if let entry = table.entries.first(where: { $0.key == key }) { return entry.value }
        }
        return nil
    }

    /// What the well-known keys of the first table hold.
    public var fields: BookmarkFields { BookmarkFields(self) }
}
