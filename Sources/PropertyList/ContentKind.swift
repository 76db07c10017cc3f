import Foundation

/// What a file or blob is, told from its signature: the formats people hand a tool by mistake.
///
/// One sniffer serves every verb, so a JPEG given to `lint`, `check` or `scan` is called a JPEG
/// everywhere, instead of each reader failing in its own words ("invalid UTF-8 byte 0xFF").
/// Only signatures are read (at most the first 512 bytes), never a file name. Text formats
/// (XML, OpenStep, JSON) have no signature and are left to the readers.
public enum ContentKind: Sendable, Hashable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// `bplist00`: a binary property list (or a keyed archive in one).
    case binaryPropertyList
    /// `04 0B typedstream` or `streamtyped`: an NSArchiver typedstream, the archive format before
    /// NSKeyedArchiver. Every verb that reads keyed archives reads it.
    case typedStream
    /// `NIBArchive`: a compiled nib (ibtool's format for iOS and for macOS 10.13 and later).
    /// Every verb that reads keyed archives reads it, as the keyed archive of its objects.
    case nibArchive
    /// `book` with a plausible header (its header length from 16 to its total length): URL
    /// bookmark data saved on its own (a `.bookmark` file, an alias file's data fork).
    case bookmark
    /// `SQLite format 3`: an SQLite database, such as a Core Data store.
    case sqlite
    /// A PNG image, with its size from the IHDR chunk (0×0 when the chunk is cut off).
    case png(width: Int, height: Int)
    case jpeg
    case gif
    /// HEIC or HEIF: an ISO base media file whose `ftyp` brand is heic, heix, mif1 or msf1.
    case heic
    case pdf
    case gzip
    /// A zlib stream (RFC 1950). Its two-byte signature is weak: callers use it for blobs, and
    /// for files only once they fail to read as what they should be.
    case zlib
    case zip
    /// A POSIX or GNU tar archive (`ustar` at byte 257).
    case tar
    case xz
    case bzip2
    /// A Mach-O executable or library, thin or universal.
    case machO
    /// An ELF executable or library.
    case elf

    /// A short label: `SQLite database`, `PNG image 64×64`, `Mach-O executable`.
    public var description: String {
        switch self {
        case .empty: "empty file"
        case .binaryPropertyList: "binary property list"
        case .typedStream: "NSArchiver typedstream"
        case .nibArchive: "compiled nib (NIBArchive)"
        case .bookmark: "bookmark data"
        case .sqlite: "SQLite database"
        case .png(let width, let height): width > 0 || height > 0 ? "PNG image \(width)×\(height)" : "PNG image"
        case .jpeg: "JPEG image"
        case .gif: "GIF image"
        case .heic: "HEIC image"
        case .pdf: "PDF document"
        case .gzip: "gzip data"
        case .zlib: "zlib data"
        case .zip: "zip archive"
        case .tar: "tar archive"
        case .xz: "xz data"
        case .bzip2: "bzip2 data"
        case .machO: "Mach-O executable"
        case .elf: "ELF executable"
        }
    }

    /// A stable identifier for machines: `sqlite`, `png`, `machO`, …
    public var kind: String {
        switch self {
        case .empty: "empty"
        case .binaryPropertyList: "binaryPropertyList"
        case .typedStream: "typedStream"
        case .nibArchive: "nibArchive"
        case .bookmark: "bookmark"
        case .sqlite: "sqlite"
        case .png: "png"
        case .jpeg: "jpeg"
        case .gif: "gif"
        case .heic: "heic"
        case .pdf: "pdf"
        case .gzip: "gzip"
        case .zlib: "zlib"
        case .zip: "zip"
        case .tar: "tar"
        case .xz: "xz"
        case .bzip2: "bzip2"
        case .machO: "machO"
        case .elf: "elf"
        }
    }

    /// How many leading bytes `sniff` looks at.
    public static let signatureLength = 512

    /// Names what `data` is from its signature, or nil when it starts like none listed here.
    public static func sniff(_ data: Data) -> ContentKind? {
        if data.isEmpty { return .empty }
        return data.withUnsafeBytes { raw in
            sniff(head: UnsafeRawBufferPointer(rebasing: raw.prefix(signatureLength)))
        }
    }

    /// `sniff` over the first bytes of a file (up to `signatureLength`).
    public static func sniff(head: UnsafeRawBufferPointer) -> ContentKind? {
        let count = head.count
        guard count > 0 else { return .empty }
        func byte(_ i: Int) -> UInt8 { head[i] }
        func starts(_ bytes: [UInt8]) -> Bool {
            guard count >= bytes.count else { return false }
            for i in bytes.indices where head[i] != bytes[i] { return false }
            return true
        }
        func bigEndian32(_ at: Int) -> Int {
            (at..<at + 4).reduce(0) { $0 << 8 | Int(head[$1]) }
        }
        if starts(Signature.bplist) { return .binaryPropertyList }
        if count >= 13, byte(0) == 3 || byte(0) == 4, byte(1) == 11,
           head[2..<13].elementsEqual("typedstream".utf8) || head[2..<13].elementsEqual("streamtyped".utf8) {
            return .typedStream
        }
        if starts(Signature.nibArchive) { return .nibArchive }
        if starts(Signature.book), count >= 20 {
            func littleEndian32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(head[at + $1]) << (8 * $1) } }
            let length = littleEndian32(4)
            let headerLength = littleEndian32(12)
            if headerLength >= 16, headerLength <= length - 4 { return .bookmark }
        }
        if starts(Signature.sqlite) { return .sqlite }
        if starts(Signature.png) {
            // IHDR is the first chunk: length (4), "IHDR", width (4, big-endian), height (4).
            guard count >= 24, head[12..<16].elementsEqual("IHDR".utf8) else {
                return .png(width: 0, height: 0)
            }
            return .png(width: bigEndian32(16), height: bigEndian32(20))
        }
        if starts(Signature.jpeg) { return .jpeg }
        if starts(Signature.gif87) || starts(Signature.gif89) { return .gif }
        if count >= 12, head[4..<8].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: UnsafeRawBufferPointer(rebasing: head[8..<12]), as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1"].contains(brand) { return .heic }
        }
        if starts(Signature.pdf) { return .pdf }
        if starts(Signature.gzip) { return .gzip }
        if Signature.zip.contains(where: starts) { return .zip }
        if starts(Signature.xz) { return .xz }
        if starts(Signature.bzip2), count >= 4, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte(3)) { return .bzip2 }
        if starts(Signature.elf) { return .elf }
        // Mach-O, either byte order, 32 or 64 bits.
        if Signature.machO.contains(where: starts) {
            return .machO
        }
        // A universal binary starts CAFEBABE like a Java class file; its next word is the number
        // of architectures (a handful), where a class file has its version (45 or more).
        if Signature.universal.contains(where: starts), count >= 8, (1..<45).contains(bigEndian32(4)) {
            return .machO
        }
        if count >= 263, head[257..<262].elementsEqual(Signature.ustar) { return .tar }
        if count >= 2, byte(0) == 0x78, byte(1) == 0x01 || byte(1) == 0x5E || byte(1) == 0x9C || byte(1) == 0xDA {
            // CMF 0x78 is deflate with a 32 KiB window; FCHECK makes the pair a multiple of 31.
            return .zlib
        }
        return nil
    }

    /// The signatures, made once: `sniff` runs for every blob a store scan reads.
    enum Signature {
        static let bplist = Array("bplist0".utf8)
        static let nibArchive = Array("NIBArchive".utf8)
        static let book = Array("book".utf8)
        static let sqlite = Array("SQLite format 3\u{0}".utf8)
        static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        static let gif87 = Array("GIF87a".utf8)
        static let gif89 = Array("GIF89a".utf8)
        static let pdf = Array("%PDF-".utf8)
        static let gzip: [UInt8] = [0x1F, 0x8B, 0x08]
        static let zip: [[UInt8]] = [[0x50, 0x4B, 0x03, 0x04], [0x50, 0x4B, 0x05, 0x06], [0x50, 0x4B, 0x07, 0x08]]
        static let xz: [UInt8] = [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
        static let bzip2 = Array("BZh".utf8)
        static let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]
        static let machO: [[UInt8]] = [[0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF], [0xCE, 0xFA, 0xED, 0xFE], [0xCF, 0xFA, 0xED, 0xFE]]
        static let universal: [[UInt8]] = [[0xCA, 0xFE, 0xBA, 0xBE], [0xCA, 0xFE, 0xBA, 0xBF]]
        static let ustar = Array("ustar".utf8)
    }
}
