import CoreFoundation
import Foundation

/// How Core Foundation turns the bytes of a text property list into characters, before its XML
/// and OpenStep parsers read them (CFPropertyList.c, `encodingForXMLData` and
/// `_CFPropertyListCreateWithData`), and its UTF-8 decoder's rules.
///
/// CF looks, in this order, for a UTF-32 byte-order mark, a UTF-8 one, a UTF-16 one, and a NUL
/// in the first two bytes (UTF-16 without a mark, of which it then skips the first two bytes
/// and reads the rest in the machine's order, little-endian); otherwise, only when the document starts with `<?xml`,
/// for an `encoding="…"` in that declaration. Anything else is UTF-8. An encoding named in the
/// declaration that CF does not know refuses the whole document.
package enum CoreFoundationText {
    /// The encodings CF picks.
    package enum Encoding: Equatable {
        /// UTF-8, after `skip` bytes (a byte-order mark).
        case utf8(skip: Int)
        case utf16BE(skip: Int)
        case utf16LE(skip: Int)
        case utf32BE(skip: Int)
        case utf32LE(skip: Int)
        /// A declared ASCII or ISO Latin 1 encoding: CF reads every byte as the character of its
        /// number (its ASCII decoder maps bytes above 0x7F as Latin 1).
        case latin1
        /// CF's NeXTSTEP Latin encoding (`x-nextstep`).
        case nextStep
        /// Mac OS Roman, with CF's own table (Apple's platforms build it; Linux's CF does not).
        case macRoman
        /// An encoding named in the declaration that Foundation converts: the converters of the
        /// platform's own CF (ICU's on Linux).
        case foundation(String.Encoding)
        /// Another encoding named in the declaration, for libxml2's converters.
        case declared(String)
    }

    /// Why the text could not be read.
    package enum Failure: Error, Equatable {
        /// The declaration names an encoding CF does not know, or runs to the end of the input.
        case unknownEncoding(String)
        /// The bytes are not valid in the encoding.
        case invalidBytes
    }

    /// The encoding CF reads `bytes` in.
    package static func encoding(of bytes: UnsafeRawBufferPointer) throws(Failure) -> Encoding {
        let n = bytes.count
        if n > 4 {
            if bytes[0] == 0x00, bytes[1] == 0x00, bytes[2] == 0xFE, bytes[3] == 0xFF { return .utf32BE(skip: 4) }
            if bytes[0] == 0xFF, bytes[1] == 0xFE, bytes[2] == 0x00, bytes[3] == 0x00 { return .utf32LE(skip: 4) }
        }
        if n > 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return .utf8(skip: 3) }
        if n > 2 {
            if bytes[0] == 0xFF, bytes[1] == 0xFE { return .utf16LE(skip: 2) }
            if bytes[0] == 0xFE, bytes[1] == 0xFF { return .utf16BE(skip: 2) }
            // "technically an error, but this check is recommended by the XML spec": CF then
            // skips two bytes, as if they were a mark, and reads UTF-16 in the machine's order,
            // little-endian on every platform Apple ships.
            if bytes[0] == 0x00 || bytes[1] == 0x00 { return .utf16LE(skip: 2) }
        }
        guard n >= 5, bytes[0] == UInt8(ascii: "<"), bytes[1] == UInt8(ascii: "?"), bytes[2] == UInt8(ascii: "x"),
              bytes[3] == UInt8(ascii: "m"), bytes[4] == UInt8(ascii: "l")
        else { return .utf8(skip: 0) }
        // Look for `encoding=` in the declaration, stopping at its end.
        var i = 5
        var found = false
        while i < n {
            let c = bytes[i]
            if c == UInt8(ascii: "?") || c == UInt8(ascii: ">") { return .utf8(skip: 0) }
            i += 1
            guard i + 8 < n else { throw .unknownEncoding("") }
            if c == UInt8(ascii: "e"), Self.matches(bytes, at: i, "ncoding=") {
                i += 8
                found = true
                break
            }
        }
        guard found, i < n else { return .utf8(skip: 0) }
        let quote = bytes[i]
        guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") else { return .utf8(skip: 0) }
        let nameStart = i + 1
        var j = nameStart
        while j < n, bytes[j] != quote { j += 1 }
        guard j < n else { return .utf8(skip: 0) }
        let name = String(decoding: bytes[nameStart..<j], as: Unicode.ASCII.self)
        return try declared(name, bytes: bytes[nameStart..<j])
    }

    private static func matches(_ bytes: UnsafeRawBufferPointer, at i: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        for k in 0..<count where bytes[i + k] != text.utf8Start[k] { return false }
        return true
    }

    /// The encoding a declared name means, as CF maps IANA names (CFStringEncodingDatabase.c).
    static func declared(_ name: String, bytes: Slice<UnsafeRawBufferPointer>) throws(Failure) -> Encoding {
        // CF's own test for "utf-8": only the letters may differ in case.
        if bytes.count == 5 {
            let b = Array(bytes)
            if b[0] | 0x20 == UInt8(ascii: "u"), b[1] | 0x20 == UInt8(ascii: "t"), b[2] | 0x20 == UInt8(ascii: "f"),
               b[3] == UInt8(ascii: "-"), b[4] == UInt8(ascii: "8") { return .utf8(skip: 0) }
        }
        // The names this switch knows are ICU's aliases, compared with only their letters and
        // digits, in lowercase, and no leading zeros (ICU's `ucnv_io_stripASCIIForCompare`):
        // "UTF_8", "utf8" and "U.T.F-08" are all UTF-8. ICU takes a name only as an ASCII C string
        // (a byte past 0x7F anywhere, even past a NUL, fails CF's conversion: FuzzParity found
        // `UTF-8#\0\xAB`) shorter than 60 bytes up to its first NUL (UCNV_MAX_CONVERTER_NAME_LENGTH).
        // Any other name is CF's to judge (below): its own table's prefixes take names of any
        // length (`ISO-8859-1e````…`, found by FuzzParity).
        let cName = bytes.prefix { $0 != 0 }
        let icuTakesIt = !bytes.contains(where: { $0 >= 0x80 }) && cName.count < 60
        switch icuTakesIt ? icuComparable(bytes) : "" {
        case "utf8": return .utf8(skip: 0)
        // The UTF-16 and UTF-32 names CF knows: without a mark (one would have been found
        // above), in the machine's order, which "<?xml" in one-byte characters never is.
        case "utf16": return .utf16LE(skip: 0)
        case "utf16be": return .utf16BE(skip: 0)
        case "utf16le": return .utf16LE(skip: 0)
        case "utf32", "utf32be": return .utf32BE(skip: 0)
        case "utf32le": return .utf32LE(skip: 0)
        case "usascii", "ascii", "ansix341968", "ansix341986", "isoir6", "iso646us", "us", "ibm367", "cp367", "csascii",
             "iso88591", "iso885911987", "isoir100", "latin1", "l1", "ibm819", "cp819", "csisolatin1", "88591":
            return .latin1
        case "xnextstep": return .nextStep
        case "shiftjis", "sjis", "mskanji", "csshiftjis", "xsjis": return .foundation(.shiftJIS)
        case "windows1250", "cp1250": return .foundation(.windowsCP1250)
        case "windows1251", "cp1251": return .foundation(.windowsCP1251)
        case "windows1252", "cp1252": return .foundation(.windowsCP1252)
        case "windows1253", "cp1253": return .foundation(.windowsCP1253)
        case "windows1254", "cp1254": return .foundation(.windowsCP1254)
        case "iso88592", "latin2", "l2", "iso885921987", "isoir101", "csisolatin2": return .foundation(.isoLatin2)
        case "macintosh", "xmacroman", "mac", "csmacintosh": return .macRoman
        // EUC-JP: Apple's platforms read it; Linux's CF names it but converts none of its
        // two-byte characters (row euc-jp-linux of docs/parity.md), so libxml2 converts it.
        case "eucjp", "xeucjp", "cseucpkdfmtjapanese", "extendedunixcodepackedformatforjapanese":
            return .declared("EUC-JP")
        default:
            // Any other name as CF itself takes it: `CFStringConvertIANACharSetNameToEncoding`
            // (its own table, with the `iso-8859-`, `cp` and `windows-` prefixes, then ICU's
            // aliases), and the document converted by CF's converter for that encoding. A name
            // handed to libxml2 instead met iconv, which reads `,` and `/` as options and
            // converts invalid bytes differently (FuzzParity found `UTF-8,x`, `Shift_JIS,x` and
            // `+ ` in UTF-7 read where CF refuses them).
            guard let encoding = Self.coreFoundationEncoding(named: bytes) else { throw .unknownEncoding(name) }
            return .foundation(encoding)
        }
    }

    /// The encoding CF names `name` (bytes taken as ISO Latin 1, as CF's XML parser makes the
    /// name), as Foundation's `String.Encoding`; nil when CF knows no such encoding.
    static func coreFoundationEncoding(named name: Slice<UnsafeRawBufferPointer>) -> String.Encoding? {
        let bytes = Array(name)
        guard let string = CFStringCreateWithBytes(nil, bytes, bytes.count, CFStringBuiltInEncodings.isoLatin1.rawValue, false) else {
            return nil
        }
        let encoding = CFStringConvertIANACharSetNameToEncoding(string)
        guard encoding != kCFStringEncodingInvalidId else { return nil }
        return String.Encoding(rawValue: UInt(CFStringConvertEncodingToNSStringEncoding(encoding)))
    }

    /// An encoding name as ICU compares it (`ucnv_io_stripASCIIForCompare`): ASCII letters in
    /// lowercase and digits, a zero dropped when it leads a run of digits, anything else left out;
    /// the name ends at a NUL, as the C string CF hands ICU does.
    static func icuComparable(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        var out: [UInt8] = []
        var afterDigit = false
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let c = bytes[i]
            if c == 0 { break }
            i += 1
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                out.append(c | 0x20)
                afterDigit = false
            case UInt8(ascii: "0"):
                if !afterDigit, i < bytes.endIndex, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { continue }
                out.append(c)
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                out.append(c)
                afterDigit = true
            default:
                afterDigit = false
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - UTF-8 as CF decodes it

    /// CF's UTF-8 decoder (CFBuiltinConverters.c, `__CFFromUTF8`): well-formed UTF-8 only (no
    /// overlong forms, no surrogates, nothing past U+10FFFF), except that a sequence it cannot
    /// read which starts with the byte 0xA9 becomes U+FFFD ("We need to allow 0xA9 (copyright in
    /// MacRoman and Unicode) not to break existing apps"). A byte-order mark at the start is
    /// skipped when `skippingMark`.
    ///
    /// - Returns: the bytes as UTF-8 CF would hold them (unchanged unless an 0xA9 was
    ///   replaced), or nil when CF refuses them.
    static func validatedUTF8(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8]? = nil
        var i = 0
        let n = b.count
        var copiedUpTo = 0
        while i < n {
            let c = b[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let length = sequenceLength(b, at: i)
            if length > 0 {
                i += length
                continue
            }
            guard c == 0xA9 else { return nil }
            if out == nil { out = [] ; out!.reserveCapacity(n + 2) }
            out!.append(contentsOf: b[copiedUpTo..<i])
            out!.append(contentsOf: [0xEF, 0xBF, 0xBD])
            i += 1
            copiedUpTo = i
        }
        guard var replaced = out else { return Array(b) }
        replaced.append(contentsOf: b[copiedUpTo..<n])
        return replaced
    }

    /// Whether `b` is UTF-8 CF reads without change.
    @inline(__always)
    static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = b.count
        while i < n {
            if b[i] < 0x80 { i += 1; continue }
            let length = sequenceLength(b, at: i)
            guard length > 0 else { return false }
            i += length
        }
        return true
    }

    /// The length of the well-formed sequence at `i` (whose first byte is not ASCII), or 0.
    @inline(__always)
    static func sequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let c = b[i]
        let n = b.count
        let length: Int
        switch c {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard i + length <= n else { return 0 }
        for k in 1..<length where b[i + k] & 0xC0 != 0x80 { return 0 }
        let second = b[i + 1]
        if c == 0xE0, second < 0xA0 { return 0 }
        if c == 0xED, second > 0x9F { return 0 }
        if c == 0xF0, second < 0x90 { return 0 }
        if c == 0xF4, second > 0x8F { return 0 }
        return length
    }

    // MARK: - Decoding other encodings

    /// A document in UTF-16 or UTF-32 (`encoding`, one of the four wide ones, after `skip`
    /// bytes of byte-order mark) as the UTF-16 code units of the string CF makes of it. CF
    /// cannot make a string of a single byte of UTF-16, or of UTF-32 past U+10FFFF.
    package static func wideDocumentUnits(_ raw: UnsafeRawBufferPointer, _ encoding: Encoding, skip: Int) throws(PropertyListError) -> [UInt16] {
        let utf32: Bool, bigEndian: Bool
        switch encoding {
        case .utf16BE: (utf32, bigEndian) = (false, true)
        case .utf16LE: (utf32, bigEndian) = (false, false)
        case .utf32BE: (utf32, bigEndian) = (true, true)
        default: (utf32, bigEndian) = (true, false)
        }
        let rest = UnsafeRawBufferPointer(rebasing: raw[min(skip, raw.count)...])
        guard rest.count >= (utf32 ? 4 : 2), let units = utf16Units(rest, utf32: utf32, bigEndian: bigEndian) else {
            throw PropertyListError(.malformed, "the document is not valid \(utf32 ? "UTF-32" : "UTF-16")", at: .byteOffset(skip))
        }
        return units
    }

    /// A document in an encoding its declaration names and Foundation converts, as UTF-8.
    package static func utf8(ofDocument raw: UnsafeRawBufferPointer, in encoding: String.Encoding) throws(PropertyListError) -> [UInt8] {
        guard let string = String(bytes: raw, encoding: encoding) else {
            throw PropertyListError(.malformed, "the document is not valid in the encoding it declares", at: .byteOffset(0))
        }
        return Array(string.utf8)
    }

    /// UTF-16 (of `bigEndian` order) or UTF-32 as UTF-16 code units, as CF's decoder reads
    /// them: an odd trailing byte is dropped; a UTF-32 value past U+10FFFF refuses the text.
    package static func utf16Units(_ b: UnsafeRawBufferPointer, utf32: Bool, bigEndian: Bool) -> [UInt16]? {
        var units: [UInt16] = []
        if utf32 {
            let count = b.count / 4
            units.reserveCapacity(count)
            for k in 0..<count {
                let i = 4 * k
                let v = bigEndian
                    ? UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
                    : UInt32(b[i + 3]) << 24 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])
                // CF's UTF-32 converter refuses a surrogate code point, alone or paired (found by
                // FuzzParity), as it refuses one past U+10FFFF.
                guard v & 0xFFFF_F800 != 0xD800 else { return nil }
                if v < 0x10000 {
                    units.append(UInt16(v))
                } else {
                    guard v <= 0x10FFFF else { return nil }
                    let w = v - 0x10000
                    units.append(UInt16(0xD800 + (w >> 10)))
                    units.append(UInt16(0xDC00 + (w & 0x3FF)))
                }
            }
        } else {
            let count = b.count / 2
            units.reserveCapacity(count)
            for k in 0..<count {
                let i = 2 * k
                units.append(bigEndian ? UInt16(b[i]) << 8 | UInt16(b[i + 1]) : UInt16(b[i + 1]) << 8 | UInt16(b[i]))
            }
        }
        return units
    }

    /// UTF-16 code units as UTF-8, as CF converts its string to UTF-8 for the XML parser: up to
    /// the first lone surrogate, where CF's conversion stops.
    package static func utf8(stoppingAtLoneSurrogate units: [UInt16]) -> [UInt8] {
        utf8(units, keepingLoneSurrogates: false)
    }

    /// UTF-16 code units as generalized UTF-8 (a lone surrogate as the three bytes UTF-8 would
    /// give its number), which the OpenStep parser reads: CF's OpenStep parser keeps them.
    static func generalizedUTF8(_ units: [UInt16]) -> [UInt8] {
        utf8(units, keepingLoneSurrogates: true)
    }

    /// UTF-16 code units as UTF-8, a surrogate pair as one scalar; a lone surrogate is kept as
    /// generalized UTF-8 or ends the conversion.
    private static func utf8(_ units: [UInt16], keepingLoneSurrogates keeps: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var i = 0
        while i < units.count {
            let u = UInt32(units[i])
            if u >= 0xD800, u < 0xDC00, i + 1 < units.count, units[i + 1] & 0xFC00 == 0xDC00 {
                TextDecoding.appendGeneralizedUTF8(0x10000 + ((u - 0xD800) << 10) + (UInt32(units[i + 1]) - 0xDC00), to: &out)
                i += 2
            } else if !keeps, u >= 0xD800, u <= 0xDFFF {
                break
            } else {
                TextDecoding.appendGeneralizedUTF8(u, to: &out)
                i += 1
            }
        }
        return out
    }

    /// Bytes read one character each: Latin 1, or (with `nextStep`) CF's NeXTSTEP Latin.
    package static func utf8(ofSingleBytes b: UnsafeRawBufferPointer, nextStep: Bool, macRoman: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count + b.count / 8)
        for c in b {
            if c < 0x80 {
                out.append(c)
            } else {
                let scalar = macRoman ? UInt32(macRomanHigh[Int(c - 0x80)]) : nextStep ? nextStepToUnicode(c) : UInt32(c)
                TextDecoding.appendGeneralizedUTF8(scalar, to: &out)
            }
        }
        return out
    }

    /// Mac OS Roman bytes 0x80…0xFF as Unicode: the upper half of CF's
    /// `__CFMacRomanCharToUnicharTable` (CFStringEncodings.c, built for Apple's platforms only).
    /// Foundation on Linux has no MacRoman converter, and its `String.Encoding.macOSRoman`
    /// decoding gives other characters (0x8E, é, comes back as ±).
    private static let macRomanHigh: [UInt16] = [
        0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1, 0x00E0, 0x00E2, 0x00E4, 0x00E3, 0x00E5, 0x00E7, 0x00E9, 0x00E8,
        0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF, 0x00F1, 0x00F3, 0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC,
        0x2020, 0x00B0, 0x00A2, 0x00A3, 0x00A7, 0x2022, 0x00B6, 0x00DF, 0x00AE, 0x00A9, 0x2122, 0x00B4, 0x00A8, 0x2260, 0x00C6, 0x00D8,
        0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202, 0x2211, 0x220F, 0x03C0, 0x222B, 0x00AA, 0x00BA, 0x03A9, 0x00E6, 0x00F8,
        0x00BF, 0x00A1, 0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB, 0x00BB, 0x2026, 0x00A0, 0x00C0, 0x00C3, 0x00D5, 0x0152, 0x0153,
        0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0x00F7, 0x25CA, 0x00FF, 0x0178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x2021, 0x00B7, 0x201A, 0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1, 0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, 0x00CC, 0x00D3, 0x00D4,
        0xF8FF, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7,
    ]

    // MARK: - NeXTSTEP Latin

    /// The character CF gives a NeXTSTEP byte (`NeXTSTEPCharacterSet`), and U+0000 for the two
    /// bytes NeXTSTEP leaves undefined (0xFE, 0xFF), as CF's octal escapes give them.
    static func nextStepToUnicode(_ byte: UInt8) -> UInt32 {
        NeXTSTEPCharacterSet.scalarValue(of: byte) ?? 0
    }
}
