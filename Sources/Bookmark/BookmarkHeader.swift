/// The header of bookmark data: magic, total length, version, header length.
public struct BookmarkHeader: Sendable, Hashable {
    /// `book`, or `alis` in bookmarks older systems wrote.
    public var magic: String
    /// The length of the whole bookmark, header included, as the header gives it.
    public var length: Int
    /// `0x10040000` in the bookmarks macOS writes.
    public var version: UInt32
    /// Where the records start; every offset inside counts from here. 48 in practice.
    public var headerLength: Int

    public init(magic: String, length: Int, version: UInt32, headerLength: Int) {
        self.magic = magic
        self.length = length
        self.version = version
        self.headerLength = headerLength
    }

    static let book = Array("book".utf8)
    static let alis = Array("alis".utf8)

    /// `book` or `alis`, a header length from 16 to the total length, and room for the first
    /// TOC's offset after the header.
    static func looksLikeHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 20 else { return false }
        let magic = bytes.prefix(4)
        guard magic.elementsEqual(book) || magic.elementsEqual(alis) else { return false }
        let length = Int(BookmarkReader.littleEndian32(bytes, at: 4))
        let headerLength = Int(BookmarkReader.littleEndian32(bytes, at: 12))
        return headerLength >= 16 && headerLength <= length - 4
    }
}
