import Foundation

/// Reads bookmark data: the header, the chain of tables of contents, and each record an entry
/// points to, following offsets.
///
/// Every offset is checked to lie inside the bookmark (after the header, before the length the
/// header gives) with overflow-checked arithmetic before anything is read there; every length
/// is checked against the bytes left; nesting and the number of records read are bounded by
/// `BookmarkReadOptions`. The input is borrowed for the walk and never escapes.
struct BookmarkReader {
    let bytes: UnsafeRawBufferPointer
    let options: BookmarkReadOptions
    let header: BookmarkHeader
    /// The end of the bookmark: the length the header gives.
    let end: Int
    var valueCount = 0
    /// Where errors say they are.
    var entry: String?

    init(bytes: UnsafeRawBufferPointer, options: BookmarkReadOptions) throws(BookmarkError) {
        self.bytes = bytes
        self.options = options
        let magic = bytes.prefix(4)
        guard magic.elementsEqual(BookmarkHeader.book) || magic.elementsEqual(BookmarkHeader.alis) else {
            throw BookmarkError(.notABookmark, "not bookmark data: the bytes do not start with book", offset: 0)
        }
        // Rule: the fixed header (magic, length, version, header length) and the first TOC's
        // offset are there.
        guard bytes.count >= 20 else {
            throw BookmarkError(.truncated, "bookmark data needs at least 20 bytes and has \(bytes.count)", offset: bytes.count)
        }
        let length = Int(Self.littleEndian32(bytes, at: 4))
        let headerLength = Int(Self.littleEndian32(bytes, at: 12))
        header = BookmarkHeader(magic: String(decoding: magic, as: UTF8.self), length: length,
                                version: Self.littleEndian32(bytes, at: 8), headerLength: headerLength)
        // Rule: the bytes hold the length the header gives (more bytes after it are not read).
        guard length <= bytes.count else {
            throw BookmarkError(.truncated, "the header gives a length of \(length) bytes and the data has \(bytes.count)", offset: 4)
        }
        // Rule: the header is at least its fixed 16 bytes and leaves room for the TOC offset.
        guard headerLength >= 16, headerLength <= length - 4 else {
            throw BookmarkError(.malformed, "a header length of \(headerLength) bytes in a bookmark of \(length)", offset: 12)
        }
        end = length
    }

    static func littleEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    func word(_ at: Int) -> UInt32 { Self.littleEndian32(bytes, at: at) }

    func error(_ code: BookmarkError.Code, _ message: String, at offset: Int) -> BookmarkError {
        BookmarkError(code, message, offset: offset, entry: entry)
    }

    /// The place of `offset` (counted from the end of the header) in the bytes, checked to leave
    /// `size` bytes before the end.
    func place(_ offset: UInt32, size: Int, what: String, from at: Int) throws(BookmarkError) -> Int {
        let (start, overflow) = header.headerLength.addingReportingOverflow(Int(offset))
        guard !overflow, start <= end, size <= end - start else {
            throw error(.malformed, "\(what) at offset \(offset) runs past the end of the bookmark (\(end) bytes)", at: at)
        }
        return start
    }

    mutating func readBookmark() throws(BookmarkError) -> Bookmark {
        var tables: [BookmarkTable] = []
        var visited: Set<UInt32> = []
        var link = header.headerLength
        var next = word(link)
        while next != 0 {
            // Rule: a chain of TOCs visits each once and stays within the limit.
            guard visited.insert(next).inserted else {
                throw error(.malformed, "the chain of tables of contents loops back to offset \(next)", at: link)
            }
            guard tables.count < options.maximumTableCount else {
                throw error(.limitExceeded, "more than maximumTableCount (\(options.maximumTableCount)) tables of contents", at: link)
            }
            let base = try place(next, size: 20, what: "a table of contents", from: link)
            // Rule: a TOC starts with its size and the magic FFFFFFFE.
            guard word(base + 4) == 0xFFFF_FFFE else {
                throw error(.malformed, "a table of contents without its magic FFFFFFFE", at: base + 4)
            }
            let identifier = word(base + 8)
            let count = Int(word(base + 16))
            // Rule: the TOC's entries (12 bytes each) lie inside the bookmark.
            let (size, overflow) = count.multipliedReportingOverflow(by: 12)
            guard !overflow, size <= end - base - 20 else {
                throw error(.truncated, "a table of contents of \(count) entries runs past the end of the bookmark", at: base + 16)
            }
            var entries: [BookmarkEntry] = []
            entries.reserveCapacity(count)
            for n in 0..<count {
                let at = base + 20 + 12 * n
                let keyWord = word(at)
                let key: BookmarkKey
                if keyWord & 0x8000_0000 != 0 {
                    entry = "table \(identifier), entry \(n)"
                    guard case .string(let name) = try readRecord(keyWord & 0x7FFF_FFFF, depth: 0, from: at) else {
                        throw error(.malformed, "an entry's key refers to a record that is not a string", at: at)
                    }
                    key = .string(name)
                } else {
                    key = .number(keyWord)
                }
                entry = "table \(identifier), key \(key)"
                entries.append(BookmarkEntry(key: key, value: try readRecord(word(at + 4), depth: 0, from: at + 4), flags: word(at + 8)))
            }
            entry = nil
            tables.append(BookmarkTable(identifier: identifier, entries: entries))
            link = base + 12
            next = word(link)
        }
        return Bookmark(header: header, tables: tables)
    }

    /// The record at `offset`, and every record it refers to.
    mutating func readRecord(_ offset: UInt32, depth: Int, from at: Int) throws(BookmarkError) -> BookmarkValue {
        guard depth <= options.maximumDepth else {
            throw error(.limitExceeded, "records nested deeper than maximumDepth (\(options.maximumDepth))", at: at)
        }
        valueCount += 1
        guard valueCount <= options.maximumValueCount else {
            throw error(.limitExceeded, "more than maximumValueCount (\(options.maximumValueCount)) records read", at: at)
        }
        let start = try place(offset, size: 8, what: "a record", from: at)
        let length = Int(word(start))
        let type = word(start + 4)
        let body = start + 8
        // Rule: the record's bytes lie inside the bookmark.
        guard length <= end - body else {
            throw error(.truncated, "a record of \(length) bytes runs past the end of the bookmark", at: start)
        }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[body..<body + length])
        let subtype = UInt8(type & 0xFF)
        switch type & 0xFFFF_FF00 {
        case 0x0100:
            guard let text = String(validating: raw, as: UTF8.self) else { return .raw(type: type, bytes: Data(raw)) }
            return .string(text)
        case 0x0200:
            return .data(Data(raw))
        case 0x0300:
            return Self.number(subtype, raw).map { .number($0) } ?? .raw(type: type, bytes: Data(raw))
        case 0x0400:
            guard length == 8 else { return .raw(type: type, bytes: Data(raw)) }
            let bits = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(raw[$1]) }
            return .date(Double(bitPattern: bits))
        case 0x0500:
            guard subtype <= 1 else { return .raw(type: type, bytes: Data(raw)) }
            return .bool(subtype == 1)
        case 0x0600:
            // Rule: an array is a whole number of 4-byte offsets.
            guard length % 4 == 0 else {
                throw error(.malformed, "an array record of \(length) bytes, not a whole number of offsets", at: start)
            }
            var elements: [BookmarkValue] = []
            elements.reserveCapacity(length / 4)
            for i in stride(from: body, to: body + length, by: 4) {
                elements.append(try readRecord(word(i), depth: depth + 1, from: i))
            }
            return .array(elements)
        case 0x0700:
            // Rule: a dictionary is a whole number of (key, value) offset pairs.
            guard length % 8 == 0 else {
                throw error(.malformed, "a dictionary record of \(length) bytes, not a whole number of offset pairs", at: start)
            }
            var pairs: [BookmarkDictionaryEntry] = []
            pairs.reserveCapacity(length / 8)
            for i in stride(from: body, to: body + length, by: 8) {
                let key = try readRecord(word(i), depth: depth + 1, from: i)
                pairs.append(BookmarkDictionaryEntry(key: key, value: try readRecord(word(i + 4), depth: depth + 1, from: i + 4)))
            }
            return .dictionary(pairs)
        case 0x0800:
            guard length == 16 else { return .raw(type: type, bytes: Data(raw)) }
            let uuid = UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                                   raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
            return .uuid(uuid)
        case 0x0900:
            switch subtype {
            case 1:
                guard let text = String(validating: raw, as: UTF8.self) else { return .raw(type: type, bytes: Data(raw)) }
                return .url(text)
            case 2:
                guard length == 8 else { return .raw(type: type, bytes: Data(raw)) }
                let base = try readRecord(word(body), depth: depth + 1, from: body)
                let relative = try readRecord(word(body + 4), depth: depth + 1, from: body + 4)
                return .relativeURL(base: base, relative: relative)
            default:
                return .raw(type: type, bytes: Data(raw))
            }
        case 0x0A00:
            return .null
        default:
            return .raw(type: type, bytes: Data(raw))
        }
    }

    /// A CFNumber of `type`: little-endian two's-complement integers of 1, 2, 4 or 8 bytes,
    /// IEEE floats of 4 or 8; nil when the length does not fit the type.
    static func number(_ type: UInt8, _ raw: UnsafeRawBufferPointer) -> BookmarkNumber? {
        func integer() -> Int64? {
            guard [1, 2, 4, 8].contains(raw.count) else { return nil }
            var value: UInt64 = 0
            for i in 0..<raw.count { value |= UInt64(raw[i]) << (8 * i) }
            // Sign-extend from the record's width.
            let shift = UInt64(64 - 8 * raw.count)
            return Int64(bitPattern: value << shift) >> Int64(shift)
        }
        func real() -> Double? {
            var value: UInt64 = 0
            for i in 0..<raw.count { value |= UInt64(raw[i]) << (8 * i) }
            switch raw.count {
            case 4: return Double(Float(bitPattern: UInt32(value)))
            case 8: return Double(bitPattern: value)
            default: return nil
            }
        }
        switch type {
        case 5, 6, 12, 13, 16:
            return real().map { BookmarkNumber(type: type, value: .real($0)) }
        case 1...4, 7...11, 14, 15:
            return integer().map { BookmarkNumber(type: type, value: .integer($0)) }
        default:
            return nil
        }
    }
}
