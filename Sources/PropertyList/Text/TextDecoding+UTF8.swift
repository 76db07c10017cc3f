import Foundation

extension TextDecoding {
    /// Runs `body` over the document as validated UTF-8 with its byte-order mark removed.
    ///
    /// UTF-8 input is borrowed in place; UTF-16 and UTF-32 input is transcoded once. The text
    /// readers then scan bytes, and every slice they turn into a String is known to be valid.
    static func withUTF8Text<R>(
        _ data: Data,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result<R, PropertyListError>
    ) -> Result<R, PropertyListError> {
        data.withUnsafeBytes { raw -> Result<R, PropertyListError> in
            let all = raw.bindMemory(to: UInt8.self)
            var head: [UInt8] = []
            for i in 0..<min(4, all.count) { head.append(all[i]) }
            let (encoding, bom) = sniff(head)
            let body8 = UnsafeBufferPointer(rebasing: all[bom...])
            if encoding == .utf8 {
                if let bad = firstInvalidUTF8(body8) {
                    return .failure(invalidText("invalid UTF-8 byte 0x\(hex(body8[bad]))", at: bad, in: body8))
                }
                return body(body8)
            }
            switch transcodeToUTF8(body8, from: encoding) {
            case .success(let utf8): return utf8.withUnsafeBufferPointer { body($0) }
            case .failure(let error): return .failure(error)
            }
        }
    }

    /// The offset of the first byte that breaks UTF-8 (overlongs, surrogates and values above
    /// U+10FFFF included), or nil when all of it is valid.
    static func firstInvalidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        var i = 0
        while i < n {
            // Eight ASCII bytes at a time: real documents are mostly ASCII.
            if i + 8 <= n, let base = b.baseAddress {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let lead = b[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F  // no surrogates
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F  // nothing above U+10FFFF
            default: return i
            }
            guard i + length <= n else { return i }
            guard b[i + 1] >= low, b[i + 1] <= high else { return i }
            for k in 2..<length where b[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    /// UTF-16 or UTF-32 text as UTF-8 bytes. Lone surrogates, values above U+10FFFF and a
    /// length that is not a whole number of code units are errors.
    static func transcodeToUTF8(_ b: UnsafeBufferPointer<UInt8>, from encoding: Encoding) -> Result<[UInt8], PropertyListError> {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        let size = encoding.unitSize
        func unit(_ i: Int) -> UInt32 {
            switch encoding {
            case .utf16BE: UInt32(b[i]) << 8 | UInt32(b[i + 1])
            case .utf16LE: UInt32(b[i + 1]) << 8 | UInt32(b[i])
            case .utf32BE: UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
            case .utf32LE: UInt32(b[i + 3]) << 24 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])
            case .utf8: UInt32(b[i])
            }
        }
        func failure(_ what: String) -> Result<[UInt8], PropertyListError> {
            let (line, column) = out.withUnsafeBufferPointer { lineColumn(of: $0.count, in: $0) }
            return .failure(PropertyListError(.malformed, what, at: .lineColumn(line: line, column: column)))
        }
        var i = 0
        while i + size <= b.count {
            var scalar = unit(i)
            i += size
            if size == 2, (0xD800...0xDBFF).contains(scalar) {
                guard i + 2 <= b.count else { return failure("unpaired UTF-16 surrogate") }
                let low = unit(i)
                guard (0xDC00...0xDFFF).contains(low) else { return failure("unpaired UTF-16 surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                i += 2
            }
            guard let s = Unicode.Scalar(scalar) else {
                return failure(size == 2 ? "unpaired UTF-16 surrogate" : "invalid UTF-32 value 0x\(String(scalar, radix: 16))")
            }
            appendUTF8(s, to: &out)
        }
        guard i == b.count else {
            return failure("the text ends in the middle of a \(encoding == .utf16BE || encoding == .utf16LE ? "UTF-16" : "UTF-32") code unit")
        }
        return .success(out)
    }

    /// Appends the UTF-8 form of `s`.
    @inline(__always)
    static func appendUTF8(_ s: Unicode.Scalar, to out: inout [UInt8]) {
        let v = s.value
        if v < 0x80 {
            out.append(UInt8(v))
        } else {
            appendGeneralizedUTF8(v, to: &out)
        }
    }

    /// Appends `v` (up to U+10FFFF) in UTF-8's bit layout. Surrogate values come out as the
    /// three bytes that WTF-8 uses, so a reader can carry a lone surrogate until the string ends.
    static func appendGeneralizedUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case ..<0x80:
            out.append(UInt8(v))
        case ..<0x800:
            out.append(UInt8(0xC0 | v >> 6))
            out.append(UInt8(0x80 | v & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | v >> 12))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18))
            out.append(UInt8(0x80 | v >> 12 & 0x3F))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        }
    }

    /// The UTF-16 code units of bytes written by `appendGeneralizedUTF8`, lone surrogates kept.
    static func utf16Units(ofGeneralizedUTF8 bytes: [UInt8]) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            var v: UInt32
            if b0 < 0x80 {
                v = b0; i += 1
            } else if b0 < 0xE0, i + 1 < bytes.count {
                v = (b0 & 0x1F) << 6 | UInt32(bytes[i + 1]) & 0x3F; i += 2
            } else if b0 < 0xF0, i + 2 < bytes.count {
                v = (b0 & 0x0F) << 12 | (UInt32(bytes[i + 1]) & 0x3F) << 6 | UInt32(bytes[i + 2]) & 0x3F; i += 3
            } else if i + 3 < bytes.count {
                v = (b0 & 0x07) << 18 | (UInt32(bytes[i + 1]) & 0x3F) << 12 | (UInt32(bytes[i + 2]) & 0x3F) << 6
                    | UInt32(bytes[i + 3]) & 0x3F
                i += 4
            } else {
                v = 0xFFFD; i += 1
            }
            if v >= 0x10000 {
                units.append(UInt16(0xD800 + ((v - 0x10000) >> 10)))
                units.append(UInt16(0xDC00 + ((v - 0x10000) & 0x3FF)))
            } else {
                units.append(UInt16(v))
            }
        }
        return units
    }

    /// The 1-based line and column (in characters) of a byte offset. CR, LF and CRLF each end a
    /// line, as CF counts them. Called only when reporting an error, so it may rescan.
    package static func lineColumn(of offset: Int, in b: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var i = 0
        let end = min(offset, b.count)
        while i < end {
            let c = b[i]
            if c == 0x0A {
                line += 1; column = 1
            } else if c == 0x0D {
                line += 1; column = 1
                if i + 1 < end, b[i + 1] == 0x0A { i += 1 }
            } else if c & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }

    static func invalidText(_ message: String, at offset: Int, in b: UnsafeBufferPointer<UInt8>) -> PropertyListError {
        let (line, column) = lineColumn(of: offset, in: b)
        return PropertyListError(.malformed, message, at: .lineColumn(line: line, column: column))
    }

    static func hex(_ byte: UInt8) -> String {
        let s = String(byte, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}
