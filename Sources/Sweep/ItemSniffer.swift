import Foundation
import PropertyList

/// What the first bytes of a file, a container member or a blob say it is, before it is read.
///
/// Sweep finds items by content, never by name: a head of `ItemSniffer.headSize` bytes is
/// enough to tell a property list, an SQLite database or a container from the noise around
/// them. Binary formats have signatures. Text formats do not, so the sniffer looks at the first
/// significant token: `<plist` (after an XML declaration or doctype) for XML; `{`, `(`, a
/// `<hex>` or `<*` value, or a `key =` pair for OpenStep; `{"key":` or `[` for JSON. Anything
/// else, including XML that is not a plist and text that starts with a word, is noise.
///
/// Text signals are weak: a JavaScript file may start with `(function`. So an OpenStep or JSON
/// candidate that does not parse is noise, while a `bplist` or `<plist` document that does not
/// parse is damaged (`strong`).
enum ItemSniffer {
    /// How many bytes the sniffer needs at most.
    static let headSize = 4096

    /// The verdict on a head.
    enum Sniff: Equatable {
        /// A property list of this format. `strong` when the signature is unmistakable (`bplist`,
        /// `<plist`): a document that then fails to read is damaged, not noise.
        case propertyList(PropertyListFormat, strong: Bool)
        /// `04 0B typedstream|streamtyped`: an NSArchiver typedstream.
        case typedStream
        /// `NIBArchive`: a compiled nib.
        case nibArchive
        /// `book` and a bookmark header: URL bookmark data saved on its own.
        case bookmark
        /// `SQLite format 3\0`.
        case sqlite
        /// A zip or a tar: read its members.
        case container
        /// gzip, bzip2 or xz data: a compressed tar, or a compressed file that is noise.
        case compressed
        /// None of the above.
        case noise

        /// A document's format and whether its signature is unmistakable: a property list's
        /// format, or nil for a typedstream, a compiled nib or bookmark data (strong); nil for
        /// what is no document.
        var document: (format: PropertyListFormat?, strong: Bool)? {
            switch self {
            case .propertyList(let format, let strong): (format, strong)
            case .typedStream, .nibArchive, .bookmark: (nil, true)
            default: nil
            }
        }
    }


    /// Sniffs `head`, the first bytes of an item (all of it when shorter than `headSize`).
    static func sniff(_ head: some Collection<UInt8>, includesJSON: Bool) -> Sniff {
        let bytes = Array(head.prefix(headSize))
        // Any version of the binary format (bplist00, and the bplist1x of newer systems, which a
        // reader refuses: a damaged-looking item is reported rather than missed).
        if bytes.starts(with: [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]) { return .propertyList(.binary, strong: true) }   // bplist
        // The other signatures are the ones every verb diagnoses with (`ContentKind`).
        let kind = bytes.withUnsafeBytes { ContentKind.sniff(head: $0) }
        switch kind {
        case .sqlite?: return .sqlite
        case .typedStream?: return .typedStream
        case .nibArchive?: return .nibArchive
        case .bookmark?: return .bookmark
        case .zip?, .tar?: return .container
        case .gzip?, .xz?, .bzip2?: return .compressed
        case .some: return .noise   // images, PDFs, executables, zlib streams, empty files
        case nil: break
        }
        guard let text = asciiView(bytes) else { return .noise }
        return sniffText(text, includesJSON: includesJSON)
    }

    /// The head as one byte per character: UTF-8 as is; UTF-16 and UTF-32 (by their byte-order
    /// mark, or the zero bytes around an XML declaration's `<`) narrowed, with non-ASCII characters as 0x80.
    static func asciiView(_ bytes: [UInt8]) -> [UInt8]? {
        func narrow(unit: Int, bigEndian: Bool, skip: Int) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count / unit)
            var i = skip
            while i + unit <= bytes.count {
                var value: UInt32 = 0
                for k in 0..<unit {
                    let byte = UInt32(bytes[bigEndian ? i + k : i + unit - 1 - k])
                    value = value << 8 | byte
                }
                out.append(value < 0x80 ? UInt8(value) : 0x80)
                i += unit
            }
            return out
        }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return narrow(unit: 4, bigEndian: true, skip: 4) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return narrow(unit: 4, bigEndian: false, skip: 4) }
        if bytes.starts(with: [0xFE, 0xFF]) { return narrow(unit: 2, bigEndian: true, skip: 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return narrow(unit: 2, bigEndian: false, skip: 2) }
        if bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) { return narrow(unit: 4, bigEndian: true, skip: 0) }    // "<" in UTF-32BE
        if bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) { return narrow(unit: 4, bigEndian: false, skip: 0) }   // "<" in UTF-32LE
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return narrow(unit: 2, bigEndian: true, skip: 0) }    // "<?" in UTF-16BE
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return narrow(unit: 2, bigEndian: false, skip: 0) }   // "<?" in UTF-16LE
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        return bytes
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// A character OpenStep allows in an unquoted string.
    static func isBare(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
             UInt8(ascii: "-"):
            true
        default: false
        }
    }

    static func sniffText(_ text: [UInt8], includesJSON: Bool) -> Sniff {
        var i = 0
        let n = text.count
        /// Skips whitespace and comments; false when a comment runs past the head.
        func skipInsignificant() -> Bool {
            while i < n {
                if isSpace(text[i]) {
                    i += 1
                } else if text[i] == UInt8(ascii: "/"), i + 1 < n, text[i + 1] == UInt8(ascii: "/") {
                    while i < n, text[i] != 0x0A, text[i] != 0x0D { i += 1 }
                } else if text[i] == UInt8(ascii: "/"), i + 1 < n, text[i + 1] == UInt8(ascii: "*") {
                    i += 2
                    while i + 1 < n, !(text[i] == UInt8(ascii: "*") && text[i + 1] == UInt8(ascii: "/")) { i += 1 }
                    guard i + 1 < n else { return false }
                    i += 2
                } else {
                    return true
                }
            }
            return true
        }
        /// Moves past a quoted string; false when it does not close within the head.
        @discardableResult
        func skipQuoted() -> Bool {
            let quote = text[i]
            i += 1
            while i < n, text[i] != quote { i += text[i] == UInt8(ascii: "\\") ? 2 : 1 }
            guard i < n else { return false }
            i += 1
            return true
        }

        func followedByEquals() -> Bool {
            guard skipInsignificant(), i < n else { return false }
            return text[i] == UInt8(ascii: "=")
        }

        let leadingWhitespace = text.prefix { isSpace($0) }.count
        // XML: only a document whose root is <plist> (HTML, SVG and other XML are noise).
        if leadingWhitespace < n, text[leadingWhitespace] == UInt8(ascii: "<"), leadingWhitespace + 1 < n,
           [UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "p")].contains(text[leadingWhitespace + 1]) {
            return contains(text, "<plist") || contains(text, "<!DOCTYPE plist") ? .propertyList(.xml, strong: true) : .noise
        }
        // Comments that run on past the head, or fill the file, leave nothing to go by.
        guard skipInsignificant(), i < n else { return .noise }
        switch text[i] {
        case UInt8(ascii: "("):
            return .propertyList(.openStep, strong: false)
        case UInt8(ascii: "["):
            return includesJSON ? .propertyList(.json, strong: false) : .noise
        case UInt8(ascii: "{"):
            i += 1
            guard skipInsignificant(), i < n else { return .propertyList(.openStep, strong: false) }
            if text[i] == UInt8(ascii: "\"") {
                // `{"key":` is JSON, `{"key" =` OpenStep.
                skipQuoted()
                guard skipInsignificant(), i < n else { return .propertyList(.openStep, strong: false) }
                if text[i] == UInt8(ascii: ":") { return includesJSON ? .propertyList(.json, strong: false) : .noise }
            }
            return .propertyList(.openStep, strong: false)
        case UInt8(ascii: "<"):
            // OpenStep data `<0fbd 77>` or GNUstep's `<*D2001-01-01>`.
            guard i + 1 < n else { return .noise }
            let next = text[i + 1]
            let isHex = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(next)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(next)
            return isHex || next == UInt8(ascii: "*") || next == UInt8(ascii: ">") ? .propertyList(.openStep, strong: false) : .noise
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            // A strings file: `"key" = "value";`. A quote that never closes in the head is
            // taken as one too.
            guard skipQuoted() else { return .propertyList(.openStep, strong: false) }
            return followedByEquals() ? .propertyList(.openStep, strong: false) : .noise
        default:
            guard isBare(text[i]) else { return .noise }
            while i < n, isBare(text[i]) { i += 1 }
            return followedByEquals() ? .propertyList(.openStep, strong: false) : .noise
        }
    }

    static func contains(_ text: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard text.count >= pattern.count else { return false }
        let first = pattern[0]
        var i = 0
        while i <= text.count - pattern.count {
            if text[i] == first, text[i..<i + pattern.count].elementsEqual(pattern) { return true }
            i += 1
        }
        return false
    }
}
