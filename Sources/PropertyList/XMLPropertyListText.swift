import Foundation

/// The pieces of an XML property list as CF writes them, shared by `XMLPropertyListWriter`
/// (from a tree) and the binary transcoder (straight from a binary file's objects), so that the
/// two write every value byte for byte alike.
enum XMLPropertyListText {
    static let header: StaticString = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n"
    static let footer: StaticString = "</plist>\n"

    /// Indentation stops growing past this depth: CF indents without limit, which makes a
    /// document of 100,000 nested arrays 10 GB of tabs. CF cannot read anything nested that
    /// deep back, so no file Foundation round-trips is affected.
    static let maximumIndentation = 512

    @inline(__always)
    static func tabs(_ n: Int, into out: inout OutputBuffer) {
        guard n > 0 else { return }
        guard n <= 8 else {
            out.append(repeating: UInt8(ascii: "\t"), count: min(n, maximumIndentation))
            return
        }
        // The usual few tabs as one word store (whose tail the count leaves), not a `memset`.
        out.reserve(8)
        UnsafeMutableRawPointer(out.base + out.count).storeBytes(of: 0x0909_0909_0909_0909 as UInt64, as: UInt64.self)
        out.count += n
    }

    /// Per byte: 1 when `escape` must look at it (`<`, `>`, `&`, NUL, CR, and 0xEF, the first
    /// byte of U+FFFE and U+FFFF), 0 otherwise.
    static let attention: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for b in [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0, 0x0D, 0xEF] { table[Int(b)] = 1 }
        return table
    }()

    /// Escapes `<`, `>` and `&` as CF does, and writes other characters raw as CF does, except
    /// those XML parsers cannot read back raw: NUL, carriage return (every parser, libxml2
    /// and expat included, turns it into a line feed), U+FFFE and U+FFFF. Those become
    /// character references, which CF reads too.
    static func escape(_ string: String, into out: inout OutputBuffer) {
        var string = string
        string.withUTF8 { escape($0, into: &out) }
    }

    /// `escape` of a string's UTF-8 bytes.
    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout OutputBuffer) {
        attention.withUnsafeBufferPointer { attention in
            var runStart = 0
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                guard attention[Int(b)] != 0 else {
                    i += 1
                    continue
                }
                let replacement: StaticString
                var length = 1
                switch b {
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "&"): replacement = "&amp;"
                case 0: replacement = "&#0;"
                case 0x0D: replacement = "&#13;"
                case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && bytes[i + 2] == 0xBE:
                    replacement = "&#65534;"
                    length = 3
                case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && bytes[i + 2] == 0xBF:
                    replacement = "&#65535;"
                    length = 3
                default:
                    i += 1
                    continue
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                out.append(replacement)
                i += length
                runStart = i
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    /// `<string>…</string>` and a line break, from the string's UTF-8 bytes.
    @inline(__always)
    static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout OutputBuffer) {
        out.append("<string>")
        escape(utf8, into: &out)
        out.append("</string>\n")
    }

    /// `<integer>…</integer>` and a line break.
    static func appendInteger(_ i: PropertyListInteger, into out: inout OutputBuffer) {
        out.append("<integer>")
        if let small = i.int64Value {
            out.appendDecimal(small.magnitude, negative: small < 0)
        } else {
            out.append(string: String(i.int128Value))
        }
        out.append("</integer>\n")
    }

    /// `<real>…</real>` and a line break: CF's `__CFNumberCopyFormattingDescriptionAsFloat64`,
    /// names for NaN and the infinities, `0.0` for either zero, and `%.17g` otherwise.
    static func appendReal(_ r: Double, into out: inout OutputBuffer) {
        out.append("<real>")
        if r.isNaN {
            out.append("nan")
        } else if r.isInfinite {
            r > 0 ? out.append("+infinity") : out.append("-infinity")
        } else if r == 0 {
            out.append("0.0")
        } else {
            XMLRealFormat.append(r, to: &out)
        }
        out.append("</real>\n")
    }

    /// `<date>…</date>` and a line break; false (with nothing written) when the date is not
    /// finite or too far from 2001 to be written in XML.
    static func appendDate(_ d: Date, into out: inout OutputBuffer) -> Bool {
        let start = out.length
        out.append("<date>")
        guard XMLDateFormat.append(d, to: &out) else {
            out.truncate(to: start)
            return false
        }
        out.append("</date>\n")
        return true
    }

    /// `<data>`, the base64 lines and `</data>` at `indent`, the first tabs already written.
    static func appendData(_ bytes: UnsafeRawBufferPointer, indent: Int, into out: inout OutputBuffer) {
        out.append("<data>\n")
        XMLBase64.appendEncoded(bytes, indent: indent, to: &out)
        tabs(indent, into: &out)
        out.append("</data>\n")
    }

    /// A UID as CF writes it: a `CF$UID` dictionary at `indent`, the first tabs already written.
    static func appendUID(_ u: UInt64, indent: Int, into out: inout OutputBuffer) {
        out.append("<dict>\n")
        tabs(indent + 1, into: &out)
        out.append("<key>CF$UID</key>\n")
        tabs(indent + 1, into: &out)
        out.append("<integer>")
        out.appendDecimal(u)
        out.append("</integer>\n")
        tabs(indent, into: &out)
        out.append("</dict>\n")
    }

    /// Orders two strings by UTF-16 code unit, as `CFStringCompare` without options does.
    ///
    /// UTF-8 byte order agrees with it except where one string has a character from
    /// U+E000–U+FFFF and the other one beyond U+FFFF (a surrogate pair in UTF-16).
    static func compareUTF16(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let n = min(x.count, y.count)
                var i = 0
                while i < n, x[i] == y[i] { i += 1 }
                if i == n { return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1) }
                let p = x[i], q = y[i]
                let pHigh = p >= 0xEE && p <= 0xEF, qHigh = q >= 0xEE && q <= 0xEF
                let pAstral = p >= 0xF0, qAstral = q >= 0xF0
                if (pHigh && qAstral) || (pAstral && qHigh) { return pAstral ? -1 : 1 }
                return p < q ? -1 : 1
            }
        }
    }

    /// The keys of a dictionary in CF's order, with each key's `<key>…</key>` line (without its
    /// indentation) rendered once: dictionaries of one shape (an array of records) sort and
    /// escape their keys once.
    final class SortedKeys: Sendable {
        /// Entry indexes in writing order.
        let order: [Int]
        /// The key strings, by entry index (for error paths).
        let names: [String]
        /// `<key>…</key>\n` for each position of `order`, as ranges of `text`.
        let lines: [Range<Int>]
        let text: [UInt8]

        init(names: [String]) {
            self.names = names
            // CF sorts keys with CFStringCompare, which orders UTF-16 code units.
            order = names.indices.sorted { a, b in
                let c = XMLPropertyListText.compareUTF16(names[a], names[b])
                return c != 0 ? c < 0 : a < b
            }
            var buffer = OutputBuffer(capacity: 64)
            var lines: [Range<Int>] = []
            for i in order {
                let start = buffer.length
                buffer.append("<key>")
                XMLPropertyListText.escape(names[i], into: &buffer)
                buffer.append("</key>\n")
                lines.append(start..<buffer.length)
            }
            self.lines = lines
            text = buffer.bytes(0..<buffer.length)
        }

        /// Writes the key line of position `position` of `order`.
        @inline(__always)
        func appendLine(_ position: Int, into out: inout OutputBuffer) {
            let line = lines[position]
            text.withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[line])) }
        }
    }
}
