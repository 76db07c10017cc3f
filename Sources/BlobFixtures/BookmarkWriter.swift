import Foundation
import Bookmark

/// Writes bookmark data for tests, in the layout `CFURLCreateBookmarkData` uses: the 48-byte
/// header, the first TOC's offset, the records (each 4-byte aligned), then the tables of contents.
public struct BookmarkWriter {
    /// The records written so far, after the header.
    var body: [UInt8] = [0, 0, 0, 0]
    public var magic = "book"
    public var version: UInt32 = 0x1004_0000
    public var headerLength = 48

    public init() {}

    /// Writes a record of `type` with `bytes` and returns its offset.
    public mutating func record(type: UInt32, bytes: [UInt8]) -> UInt32 {
        let offset = UInt32(body.count)
        body += Self.word(UInt32(bytes.count)) + Self.word(type) + bytes
        while body.count % 4 != 0 { body.append(0) }
        return offset
    }

    /// Writes `value` (and the records it refers to) and returns its offset.
    public mutating func record(_ value: BookmarkValue) -> UInt32 {
        switch value {
        case .string(let s): return record(type: 0x0101, bytes: Array(s.utf8))
        case .data(let d): return record(type: 0x0201, bytes: Array(d))
        case .number(let n):
            switch n.value {
            case .integer(let v):
                let width = [1: 1, 2: 2, 3: 4, 7: 1, 8: 2, 9: 4][Int(n.type)] ?? 8
                return record(type: 0x0300 | UInt32(n.type), bytes: (0..<width).map { UInt8(truncatingIfNeeded: v >> (8 * Int64($0))) })
            case .real(let v):
                if n.type == 5 || n.type == 12 {
                    return record(type: 0x0300 | UInt32(n.type), bytes: Self.word(Float(v).bitPattern))
                }
                return record(type: 0x0300 | UInt32(n.type), bytes: (0..<8).map { UInt8(truncatingIfNeeded: v.bitPattern >> (8 * UInt64($0))) })
            }
        case .date(let d): return record(type: 0x0400, bytes: (0..<8).map { UInt8(truncatingIfNeeded: d.bitPattern >> (56 - 8 * UInt64($0))) })
        case .bool(let b): return record(type: b ? 0x0501 : 0x0500, bytes: [])
        case .array(let elements):
            let offsets = elements.map { record($0) }
            return record(type: 0x0601, bytes: offsets.flatMap(Self.word))
        case .dictionary(let pairs):
            let offsets = pairs.flatMap { [record($0.key), record($0.value)] }
            return record(type: 0x0701, bytes: offsets.flatMap(Self.word))
        case .uuid(let u):
            let t = u.uuid
            return record(type: 0x0801, bytes: [t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7, t.8, t.9, t.10, t.11, t.12, t.13, t.14, t.15])
        case .url(let s): return record(type: 0x0901, bytes: Array(s.utf8))
        case .relativeURL(let base, let relative):
            let b = record(base)
            let r = record(relative)
            return record(type: 0x0902, bytes: Self.word(b) + Self.word(r))
        case .null: return record(type: 0x0A01, bytes: [])
        case .raw(let type, let bytes): return record(type: type, bytes: Array(bytes))
        }
    }

    /// The whole bookmark: `tables` written after their records, chained in order.
    public mutating func bytes(tables: [BookmarkTable]) -> [UInt8] {
        var written: [(identifier: UInt32, entries: [(UInt32, UInt32)])] = []
        for table in tables {
            var entries: [(UInt32, UInt32)] = []
            for entry in table.entries {
                let key: UInt32
                switch entry.key {
                case .number(let n): key = n
                case .string(let s): key = record(.string(s)) | 0x8000_0000
                }
                entries.append((key, record(entry.value)))
            }
            written.append((table.identifier, entries))
        }
        return bytes(rawTables: written)
    }

    /// The whole bookmark with tables of (key word, record offset) pairs as given.
    public mutating func bytes(rawTables: [(identifier: UInt32, entries: [(UInt32, UInt32)])]) -> [UInt8] {
        var tocOffsets: [Int] = []
        var tocBytes: [[UInt8]] = []
        var at = body.count
        for table in rawTables {
            tocOffsets.append(at)
            var toc = Self.word(UInt32(12 + 12 * table.entries.count)) + Self.word(0xFFFF_FFFE) + Self.word(table.identifier)
            toc += Self.word(0) + Self.word(UInt32(table.entries.count))
            for (key, offset) in table.entries { toc += Self.word(key) + Self.word(offset) + Self.word(0) }
            tocBytes.append(toc)
            at += toc.count
        }
        var all = body
        for (i, var toc) in tocBytes.enumerated() {
            if i + 1 < tocOffsets.count { toc.replaceSubrange(12..<16, with: Self.word(UInt32(tocOffsets[i + 1]))) }
            all += toc
        }
        if let first = tocOffsets.first { all.replaceSubrange(0..<4, with: Self.word(UInt32(first))) }
        var header = Array(magic.utf8) + Self.word(UInt32(headerLength + all.count)) + Self.word(version) + Self.word(UInt32(headerLength))
        header += [UInt8](repeating: 0, count: headerLength - header.count)
        return header + all
    }

    public static func word(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
