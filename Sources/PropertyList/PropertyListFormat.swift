import Foundation

/// The serialization formats Archivist reads, and the ones it writes.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case binary
    case xml
    case openStep = "openstep"
    case json

    public var description: String {
        switch self {
        case .binary: "binary property list"
        case .xml: "XML property list"
        case .openStep: "OpenStep property list"
        case .json: "JSON"
        }
    }

    /// Guesses the format from the first bytes, as plutil does: no extension is trusted.
    ///
    /// - Returns: nil when the bytes are empty or start like no format we know.
    public static func detect(_ bytes: some Collection<UInt8>) -> PropertyListFormat? {
        var it = bytes.makeIterator()
        var head: [UInt8] = []
        head.reserveCapacity(64)
        while head.count < 64, let b = it.next() { head.append(b) }
        return detect(head: head)
    }

    /// `detect` for `Data`, which is read in place rather than through its generic iterator
    /// (stores call this once per value).
    public static func detect(_ data: Data) -> PropertyListFormat? {
        data.withUnsafeBytes { raw in
            detect(head: Array(UnsafeRawBufferPointer(rebasing: raw.prefix(64))))
        }
    }

    static func detect(head: [UInt8]) -> PropertyListFormat? {
        if head.count >= 6, head[0] == 0x62, head[1] == 0x70, head[2] == 0x6C, head[3] == 0x69, head[4] == 0x73, head[5] == 0x74 {
            return .binary   // "bplist"
        }
        // Byte-order marks: UTF-8, UTF-16 and UTF-32 text can hold XML or OpenStep.
        if let text = TextDecoding.asciiPrefix(head) {
            return detectText(text)
        }
        return nil
    }

    /// Whether text that `detect` calls OpenStep may be a JSON document all the same: it starts
    /// the way a JSON scalar does (`"`, `-`, a digit, `t`, `f` or `n` after any whitespace), or
    /// it opens an empty object (`{ }`). Only parsing tells whether it is one.
    static func mayBeJSON(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var bytes = raw[...]
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
            guard let start = bytes.firstIndex(where: { !isSpace($0) }) else { return false }
            switch bytes[start] {
            case UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                return true
            case UInt8(ascii: "{"):
                let next = bytes[(start + 1)...].first(where: { !isSpace($0) })
                return next == UInt8(ascii: "}")
            default:
                return false
            }
        }
    }

    static func detectText(_ prefix: [UInt8]) -> PropertyListFormat? {
        var i = 0
        // Skip whitespace and comments only at the simplest level; readers report real errors.
        while i < prefix.count, prefix[i] == 0x20 || prefix[i] == 0x09 || prefix[i] == 0x0A || prefix[i] == 0x0D {
            i += 1
        }
        guard i < prefix.count else { return prefix.isEmpty ? nil : .openStep }
        switch prefix[i] {
        case UInt8(ascii: "<"):
            // "<?xml", "<!DOCTYPE", "<plist" are XML; "<0fbd>" is OpenStep data.
            if i + 1 < prefix.count, [UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "p")].contains(prefix[i + 1]) {
                return .xml
            }
            return .openStep
        case UInt8(ascii: "["):
            return .json
        case UInt8(ascii: "{"):
            var j = i + 1
            while j < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[j]) { j += 1 }
            guard j < prefix.count else { return .openStep }
            if prefix[j] == UInt8(ascii: "}") { return .openStep }
            if prefix[j] == UInt8(ascii: "\"") {
                // A JSON object has "key": where OpenStep has "key" =.
                var k = j + 1
                while k < prefix.count, prefix[k] != UInt8(ascii: "\"") {
                    k += prefix[k] == UInt8(ascii: "\\") ? 2 : 1
                }
                k += 1
                while k < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[k]) { k += 1 }
                if k < prefix.count, prefix[k] == UInt8(ascii: ":") { return .json }
            }
            return .openStep
        default:
            return .openStep
        }
    }
}
