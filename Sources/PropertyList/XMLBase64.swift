/// Base64 as XML property lists carry it: CF's line layout when writing, whitespace-tolerant
/// strict decoding when reading.
enum XMLBase64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 0...63 for alphabet bytes, 64 for whitespace, 65 for '=', 255 for anything else.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        for c in [0x20, 0x09, 0x0A, 0x0D] { table[c] = 64 }
        table[Int(UInt8(ascii: "="))] = 65
        return table
    }()

    /// Appends `bytes` the way CF's `_XMLPlistAppendDataUsingBase64` does: padded base64 cut into
    /// lines of `76 - 8 * indent` characters, each indented with `indent` tabs (at most 8), because
    /// CF counts a tab as 8 columns of a 76-column line.
    static func appendEncoded(_ bytes: UnsafeRawBufferPointer, indent: Int, to out: inout OutputBuffer) {
        let indent = min(indent, 8)
        let groupsPerLine = (76 - 8 * indent) / 4
        let groupCount = (bytes.count + 2) / 3
        guard groupCount > 0, let source = bytes.baseAddress else { return }
        let lines = (groupCount + groupsPerLine - 1) / groupsPerLine
        // The tabs are stored eight at a time: room for the last store's overshoot.
        out.reserve(groupCount * 4 + lines * (indent + 1) + 8)
        let wholeGroups = bytes.count / 3
        alphabet.withUnsafeBufferPointer { table in
            let start = UnsafeMutableRawPointer(out.base + out.count)
            var at = start
            var g = 0
            while g < groupCount {
                at.storeBytes(of: 0x0909_0909_0909_0909 as UInt64, as: UInt64.self)
                at += indent
                let lineEnd = min(g + groupsPerLine, groupCount)
                // Three bytes make four characters, stored as one word.
                while g < min(lineEnd, wholeGroups) {
                    let p = source + 3 * g
                    let v = UInt32(p.load(as: UInt8.self)) << 16 | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8
                        | UInt32(p.load(fromByteOffset: 2, as: UInt8.self))
                    let word = UInt32(table[Int(v >> 18)]) | UInt32(table[Int(v >> 12 & 0x3F)]) << 8
                        | UInt32(table[Int(v >> 6 & 0x3F)]) << 16 | UInt32(table[Int(v & 0x3F)]) << 24
                    at.storeBytes(of: word.littleEndian, as: UInt32.self)
                    at += 4
                    g += 1
                }
                if g < lineEnd {
                    // The last group, of one or two bytes, padded.
                    let p = source + 3 * g
                    let b0 = Int(p.load(as: UInt8.self))
                    let b1 = bytes.count - 3 * g > 1 ? Int(p.load(fromByteOffset: 1, as: UInt8.self)) : 0
                    at.storeBytes(of: table[b0 >> 2], as: UInt8.self)
                    at.storeBytes(of: table[(b0 & 0x03) << 4 | b1 >> 4], toByteOffset: 1, as: UInt8.self)
                    at.storeBytes(of: bytes.count - 3 * g > 1 ? table[(b1 & 0x0F) << 2] : UInt8(ascii: "="), toByteOffset: 2, as: UInt8.self)
                    at.storeBytes(of: UInt8(ascii: "="), toByteOffset: 3, as: UInt8.self)
                    at += 4
                    g += 1
                }
                at.storeBytes(of: UInt8(ascii: "\n"), as: UInt8.self)
                at += 1
            }
            out.count += at - start
        }
    }

    enum DecodeError: Error {
        /// A byte that is neither base64, whitespace nor padding, at this offset of the text.
        case invalidByte(UInt8, offset: Int)
        /// Padding in the middle, too much padding, or a dangling single character.
        case badLength
    }

    /// The most bytes `count` characters of base64 can decode to.
    static func maximumDecodedCount(_ count: Int) -> Int { count / 4 * 3 + 3 }

    /// Decodes base64 text, skipping XML whitespace anywhere, into `out`, which must hold
    /// `maximumDecodedCount(text.count)` bytes. Unpadded input is accepted.
    ///
    /// - Returns: the number of bytes written.
    static func decode(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableRawBufferPointer) throws(DecodeError) -> Int {
        precondition(out.count >= maximumDecodedCount(text.count), "base64 output buffer too small")
        var written = 0
        var acc: UInt32 = 0
        var pending = 0
        var padding = 0
        try decodeTable.withUnsafeBufferPointer { table throws(DecodeError) in
            for i in 0..<text.count {
                let v = table[Int(text[i])]
                if v < 64 {
                    guard padding == 0 else { throw .badLength }
                    acc = acc << 6 | UInt32(v)
                    pending += 1
                    if pending == 4 {
                        out[written] = UInt8(truncatingIfNeeded: acc >> 16)
                        out[written + 1] = UInt8(truncatingIfNeeded: acc >> 8)
                        out[written + 2] = UInt8(truncatingIfNeeded: acc)
                        written += 3
                        acc = 0
                        pending = 0
                    }
                } else if v == 64 {
                    continue
                } else if v == 65 {
                    padding += 1
                    guard pending >= 2, pending + padding <= 4 else { throw .badLength }
                } else {
                    throw .invalidByte(text[i], offset: i)
                }
            }
        }
        if padding > 0, pending + padding != 4 { throw .badLength }
        switch pending {
        case 0: break
        case 2:
            out[written] = UInt8(truncatingIfNeeded: acc >> 4)
            written += 1
        case 3:
            out[written] = UInt8(truncatingIfNeeded: acc >> 10)
            out[written + 1] = UInt8(truncatingIfNeeded: acc >> 2)
            written += 2
        default: throw .badLength
        }
        return written
    }
}
