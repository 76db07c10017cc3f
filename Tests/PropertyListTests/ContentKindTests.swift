import Foundation
import Testing
@testable import PropertyList

/// The one content sniffer, and the truncated-file diagnosis of the binary reader.
@Suite struct ContentKindTests {
    /// Signatures as each format begins; each line says where the bytes come from.
    static let signatures: [(bytes: [UInt8], kind: ContentKind)] = [
        ([], .empty),
        (Array("SQLite format 3\u{0}".utf8) + [0x10, 0x00], .sqlite),                         // every SQLite 3 file
        (Array("bplist00".utf8) + [0x08], .binaryPropertyList),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8), .jpeg),                 // JFIF header
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0, 2, 0, 0, 0, 1], .png(width: 2, height: 1)),                          // PNG, IHDR 2×1
        (Array("GIF89a".utf8), .gif),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8), .heic),
        (Array("%PDF-1.7".utf8), .pdf),
        ([0x1F, 0x8B, 0x08, 0x00], .gzip),                                                   // gzip, deflate
        ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], .zip),                                        // zip local file header
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], .xz),
        (Array("BZh9".utf8), .bzip2),
        ([0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0x00, 0x00, 0x01], .machO),                          // 64-bit arm64, little-endian
        ([0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x02], .machO),                          // universal, 2 architectures
        ([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01], .elf),
        ([0x78, 0x9C, 0x4B, 0x4C], .zlib),                                                   // zlib, default compression
        (Array(repeating: 0x61, count: 257) + Array("ustar\u{0}00".utf8), .tar),            // a POSIX tar header
    ]

    @Test(arguments: signatures.indices)
    func eachSignatureIsNamed(_ index: Int) {
        let (bytes, kind) = Self.signatures[index]
        #expect(ContentKind.sniff(Data(bytes)) == kind)
    }

    @Test func textAndJavaClassFilesAreNotNamed() {
        for text in ["<?xml version=\"1.0\"?><plist/>", "{ a = 1; }", "{\"a\": 1}", "hello = world;"] {
            #expect(ContentKind.sniff(Data(text.utf8)) == nil, "\(text)")
        }
        // A Java class file starts CAFEBABE too, with its version (52) where a universal
        // binary has its architecture count.
        #expect(ContentKind.sniff(Data([0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x34])) == nil)
    }

    @Test func aBinaryPlistCutShortSaysTruncatedWithWhereItEnds() throws {
        // A one-string plist: header, "hello world" (ASCII string marker 0x5B), offset table, trailer.
        let object: [UInt8] = [0x5B] + Array("hello world".utf8)
        let whole = magic + object + [8] + trailer(count: 1, tableOffset: 20)
        #expect(try readBinary(whole) == "hello world")
        // Cut inside the string: 8 + 12 + 1 + 32 bytes were needed at least.
        let cut = Array(whole.prefix(15))
        let error = try #require(binaryError(cut))
        #expect(error.code == .truncated)
        // Under 42 bytes the trailer alone cannot fit.
        #expect(error.description == "truncated: the file ends at byte 15; its trailer needs the file to run to at least byte 42")
    }

    @Test func aLongerFileCutInsideItsObjectsNamesTheLengthItNeeded() throws {
        // 20 strings of 40 bytes, cut in the middle of the tenth.
        var objects: [UInt8] = []
        var offsets: [Int] = []
        for i in 0..<20 {
            offsets.append(8 + objects.count)
            objects += [0x5F, 0x10, 40] + Array(String(repeating: Character(String(i % 10)), count: 40).utf8)
        }
        let array: [UInt8] = [0xAF, 0x10, 20] + (0..<20).map { UInt8($0) }
        offsets.append(8 + objects.count)
        objects += array
        let tableOffset = 8 + objects.count
        // Two-byte offsets, big-endian.
        let table = offsets.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        let whole = magic + objects + table + trailer(offsetSize: 2, count: 21, top: 20, tableOffset: UInt64(tableOffset))
        guard case .array(let strings) = try readBinary(whole) else {
            Issue.record("the whole file does not read as an array")
            return
        }
        #expect(strings.count == 20)
        let cutAt = 8 + 9 * 43 + 20
        let error = try #require(binaryError(Array(whole.prefix(cutAt))))
        #expect(error.code == .truncated)
        // The tenth string runs to 8 + 10 × 43 = 438; ten offsets and the trailer follow.
        #expect(error.description.hasPrefix("truncated: the file ends at byte \(cutAt); its trailer needs the file to run to at least byte "),
                "\(error.description)")
        let needed = Int(error.description.split(separator: " ").last ?? "") ?? 0
        #expect(needed > cutAt && needed <= whole.count)
    }

    @Test func aDamagedTrailerInAWholeFileIsNotCalledTruncated() {
        // The trailer is there (its five unused bytes are zero) but says an offset size of 9.
        let error = binaryError(magic + [0x08, 8] + trailer(offsetSize: 9, count: 1, tableOffset: 9))
        #expect(error?.code == .malformed)
    }

    /// Every valid binary plist of the shared corpus, cut at a tenth, a half and nine tenths of
    /// its length: nearly every cut is called truncated (the rest, where the cut leaves zeros
    /// that look like a trailer's, keep the trailer's own message), and none reads.
    @Test(.enabled(if: SharedCorpus.isAvailable, "needs ../shared/corpus"))
    func corpusBinaryPlistsCutShortAreCalledTruncated() throws {
        var cuts = 0, truncated = 0
        for entry in SharedCorpus.entries where entry.isValid && entry.format == "bplist00" {
            let data = try Data(contentsOf: entry.url)
            for fraction in [10, 50, 90] {
                let length = data.count * fraction / 100
                guard length > 8 else { continue }
                cuts += 1
                let error = binaryError(Array(data.prefix(length)))
                #expect(error != nil, "\(entry.path) cut at \(length) reads")
                if error?.code == .truncated, error?.description.hasPrefix("truncated: the file ends at byte \(length);") == true { truncated += 1 }
            }
        }
        #expect(cuts > 100)
        #expect(Double(truncated) >= Double(cuts) * 0.95, "\(truncated) of \(cuts) cuts called truncated")
    }
}
