import Foundation

/// Recognizes the Unicode encodings that text property lists arrive in.
package enum TextDecoding {
    enum Encoding: Equatable {
        case utf8, utf16BE, utf16LE, utf32BE, utf32LE

        var unitSize: Int {
            switch self {
            case .utf8: 1
            case .utf16BE, .utf16LE: 2
            case .utf32BE, .utf32LE: 4
            }
        }
    }

    /// The encoding and the length of its byte-order mark. Without a mark, NUL bytes in the first
    /// characters reveal UTF-16 or UTF-32, as XML's autodetection does.
    static func sniff(_ b: [UInt8]) -> (Encoding, bomLength: Int) {
        func at(_ i: Int) -> UInt8? { i < b.count ? b[i] : nil }
        if at(0) == 0x00, at(1) == 0x00, at(2) == 0xFE, at(3) == 0xFF { return (.utf32BE, 4) }
        if at(0) == 0xFF, at(1) == 0xFE, at(2) == 0x00, at(3) == 0x00 { return (.utf32LE, 4) }
        if at(0) == 0xEF, at(1) == 0xBB, at(2) == 0xBF { return (.utf8, 3) }
        if at(0) == 0xFE, at(1) == 0xFF { return (.utf16BE, 2) }
        if at(0) == 0xFF, at(1) == 0xFE { return (.utf16LE, 2) }
        if let a = at(0), let c = at(1), let d = at(2), let e = at(3) {
            if a == 0, c == 0, d == 0, e != 0 { return (.utf32BE, 0) }
            if a != 0, c == 0, d == 0, e == 0 { return (.utf32LE, 0) }
            if a == 0, c != 0, d == 0, e != 0 { return (.utf16BE, 0) }
            if a != 0, c == 0, d != 0, e == 0 { return (.utf16LE, 0) }
        }
        return (.utf8, 0)
    }

    /// The first characters as single bytes (non-ASCII becomes 0x80), for format detection.
    static func asciiPrefix(_ head: [UInt8]) -> [UInt8]? {
        guard !head.isEmpty else { return nil }
        let (encoding, bom) = sniff(head)
        let size = encoding.unitSize
        var out: [UInt8] = []
        var i = bom
        while i + size <= head.count {
            var scalar: UInt32 = 0
            switch encoding {
            case .utf8: scalar = UInt32(head[i])
            case .utf16BE: scalar = UInt32(head[i]) << 8 | UInt32(head[i + 1])
            case .utf16LE: scalar = UInt32(head[i + 1]) << 8 | UInt32(head[i])
            case .utf32BE:
                scalar = UInt32(head[i]) << 24 | UInt32(head[i + 1]) << 16 | UInt32(head[i + 2]) << 8 | UInt32(head[i + 3])
            case .utf32LE:
                scalar = UInt32(head[i + 3]) << 24 | UInt32(head[i + 2]) << 16 | UInt32(head[i + 1]) << 8 | UInt32(head[i])
            }
            out.append(scalar < 0x80 ? UInt8(scalar) : 0x80)
            i += size
        }
        return out
    }

    /// Decodes a whole text document into a String, validating it.
    ///
    /// - Returns: nil when the bytes are not valid in the encoding they announce.
    static func decode(_ bytes: Data) -> (String, Encoding)? {
        let head = [UInt8](bytes.prefix(4))
        let (encoding, bom) = sniff(head)
        let body = bytes.dropFirst(bom)
        let string: String?
        switch encoding {
        case .utf8:
            string = String(validating: body, as: UTF8.self)
        case .utf16BE, .utf16LE:
            guard body.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var i = body.startIndex
            while i < body.endIndex {
                let a = UInt16(body[i]), c = UInt16(body[i + 1])
                units.append(encoding == .utf16BE ? a << 8 | c : c << 8 | a)
                i += 2
            }
            string = String(validating: units, as: UTF16.self)
        case .utf32BE, .utf32LE:
            guard body.count % 4 == 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            var i = body.startIndex
            while i < body.endIndex {
                let b0 = UInt32(body[i]), b1 = UInt32(body[i + 1]), b2 = UInt32(body[i + 2]), b3 = UInt32(body[i + 3])
                let v = encoding == .utf32BE ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
                guard let s = Unicode.Scalar(v) else { return nil }
                scalars.append(s)
                i += 4
            }
            string = String(scalars)
        }
        return string.map { ($0, encoding) }
    }
}
