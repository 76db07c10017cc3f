import Foundation
internal import CBase64

/// Appends JSON to a byte buffer. Key paths are added to errors only as they propagate,
/// so writing costs nothing for them.
///
/// `KeyedArchiveJSONExporter` streams its documents through the same emitter, so the two
/// spell every value the same way (SPI for the reason `OutputBuffer` gives).
@_spi(Writers)
public struct JSONEmitter: ~Copyable {
    public var out: OutputBuffer
    @usableFromInline let options: JSONWriteOptions
    public let pretty: Bool
    @usableFromInline let sorted: Bool
    @usableFromInline let escapesSlashes: Bool

    public init(options: JSONWriteOptions, capacity: Int = 4096) {
        self.options = options
        pretty = options.outputFormatting.contains(.prettyPrinted)
        sorted = options.outputFormatting.contains(.sortedKeys)
        escapesSlashes = !options.outputFormatting.contains(.withoutEscapingSlashes)
        out = OutputBuffer(capacity: capacity)
    }

    /// Whether object keys are written sorted (`.sortedKeys`).
    public var sortsKeys: Bool { sorted }

    /// The JSON written, as `Data` that owns the bytes.
    public consuming func data() -> Data {
        out.data()
    }

    public mutating func write(_ value: PropertyListValue, level: Int) throws(PropertyListError) {
        switch value {
        case .string(let s): writeString(s)
        case .invalidUTF16String(let units): writeUTF16(units)
        case .integer(let i): writeInteger(i)
        case .real(let r): try writeReal(r, what: "real")
        case .bool(let b): out.append(b ? "true" : "false")
        case .null: out.append("null")
        case .date(let d): try writeDate(d)
        case .data(let d): writeData(d, level: level)
        case .array(let items), .set(let items): try writeArray(items, level: level)
        case .dictionary(let d): try writeDictionary(d, level: level)
        case .uid(let n):
            // The spelling XML property lists use, so the reference survives a round trip.
            out.append(UInt8(ascii: "{"))
            newline(level + 1)
            writeString("CF$UID")
            writeColon()
            out.appendDecimal(n)
            newline(level)
            out.append(UInt8(ascii: "}"))
        }
    }

    // MARK: Collections

    private mutating func writeArray(_ items: [PropertyListValue], level: Int) throws(PropertyListError) {
        guard !items.isEmpty else { return writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
        out.append(UInt8(ascii: "["))
        for i in items.indices {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            newline(level + 1)
            do { try write(items[i], level: level + 1) } catch { throw error.under("[\(i)]") }
        }
        newline(level)
        out.append(UInt8(ascii: "]"))
    }

    private mutating func writeDictionary(_ d: PropertyListDictionary, level: Int) throws(PropertyListError) {
        guard !d.isEmpty else { return writeEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), level: level) }
        let keys = d.keys
        var allStrings = true
        var allIntegers = true
        for key in keys {
            switch key {
            case .string, .invalidUTF16String: allIntegers = false
            case .integer: allStrings = false
            default:
                allStrings = false
                allIntegers = false
            }
            if !allStrings && !allIntegers { break }
        }
        guard allStrings || allIntegers else { return try writeKeyValueArray(d, level: level) }

        let values = d.values
        out.append(UInt8(ascii: "{"))
        if sorted {
            let order = Self.sortedKeyOrder(keys.map { Array(Self.keyText($0).utf8) })
            for (n, i) in order.enumerated() {
                try writeEntry(key: keys[i], value: values[i], first: n == 0, level: level)
            }
        } else {
            for i in keys.indices {
                try writeEntry(key: keys[i], value: values[i], first: i == 0, level: level)
            }
        }
        newline(level)
        out.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    private mutating func writeEntry(key: PropertyListValue, value: PropertyListValue, first: Bool, level: Int) throws(PropertyListError) {
        if !first { out.append(UInt8(ascii: ",")) }
        newline(level + 1)
        switch key {
        case .string(let s): writeString(s)
        case .invalidUTF16String(let units): writeUTF16(units)
        default: writeString(Self.keyText(key))
        }
        writeColon()
        do { try write(value, level: level + 1) } catch { throw error.under(Self.keyText(key)) }
    }

    /// The order a sorted object's keys are written in, given each key's UTF-8 bytes: by those
    /// bytes, as JSONEncoder orders them, ties in the order read.
    public static func sortedKeyOrder(_ keys: [[UInt8]]) -> [Int] {
        keys.indices.sorted { a, b in keys[a] == keys[b] ? a < b : keys[a].lexicographicallyPrecedes(keys[b]) }
    }

    /// Codable's form for a dictionary whose keys are neither String nor Int.
    private mutating func writeKeyValueArray(_ d: PropertyListDictionary, level: Int) throws(PropertyListError) {
        out.append(UInt8(ascii: "["))
        for i in d.indices {
            let component = Self.keyText(d.keys[i])
            if i > 0 { out.append(UInt8(ascii: ",")) }
            newline(level + 1)
            do { try write(d.keys[i], level: level + 1) } catch { throw error.under(component) }
            out.append(UInt8(ascii: ","))
            newline(level + 1)
            do { try write(d.values[i], level: level + 1) } catch { throw error.under(component) }
        }
        newline(level)
        out.append(UInt8(ascii: "]"))
    }

    /// A key as JSON text, and as a key-path component.
    private static func keyText(_ key: PropertyListValue) -> String {
        switch key {
        case .string(let s): s
        case .invalidUTF16String(let units): String(decoding: units, as: UTF16.self)
        case .integer(let i): i.description
        default: "\(key)"
        }
    }

    /// JSONEncoder writes an empty collection pretty-printed with a blank line inside.
    @inlinable
    public mutating func writeEmpty(_ open: UInt8, _ close: UInt8, level: Int) {
        out.append(open)
        if pretty {
            out.append(0x0A)
            newline(level)
        }
        out.append(close)
    }

    /// A line break and the indentation of `level`, when pretty-printing.
    @inlinable @inline(__always)
    public mutating func newline(_ level: Int) {
        guard pretty else { return }
        out.reserve(2 * level + 9)
        out.appendLineBreakUnchecked(indent: 2 * level)
    }

    @inlinable @inline(__always)
    public mutating func writeColon() {
        if pretty {
            out.append(" : ")
        } else {
            out.append(UInt8(ascii: ":"))
        }
    }

    /// Starts the entry of an object: a comma unless it is the first, the line break, the key
    /// and the colon. The key must need no escaping.
    @inlinable @inline(__always)
    public mutating func writeKey(_ key: StaticString, first: Bool, level: Int) {
        out.reserve(2 * level + (key.hasPointerRepresentation ? key.utf8CodeUnitCount : 4) + 16)
        if !first { out.appendUnchecked(UInt8(ascii: ",")) }
        if pretty { out.appendLineBreakUnchecked(indent: 2 * level) }
        out.appendUnchecked(UInt8(ascii: "\""))
        out.appendUnchecked(key)
        if pretty { out.appendUnchecked("\" : ") } else { out.appendUnchecked("\":") }
    }

    /// Starts the entry of an object whose key is any string.
    @inlinable @inline(__always)
    public mutating func writeKey(string key: String, first: Bool, level: Int) {
        out.reserve(2 * level + 10)
        if !first { out.appendUnchecked(UInt8(ascii: ",")) }
        if pretty { out.appendLineBreakUnchecked(indent: 2 * level) }
        writeString(key)
        writeColon()
    }

    /// The separator before an element of an array or an entry of an object: a comma unless
    /// it is the first, and the line break and indentation of `level`.
    @inlinable @inline(__always)
    public mutating func writeSeparator(first: Bool, level: Int) {
        out.reserve(2 * level + 10)
        if !first { out.appendUnchecked(UInt8(ascii: ",")) }
        if pretty { out.appendLineBreakUnchecked(indent: 2 * level) }
    }

    // MARK: Scalars

    @inlinable
    public mutating func writeInteger(_ i: PropertyListInteger) {
        if let v = i.int64Value {
            out.appendDecimal(v.magnitude, negative: v < 0)
        } else {
            out.append(string: i.description)
        }
    }

    /// A real as JSONEncoder writes it: Swift's shortest round-trip form without a trailing `.0`.
    ///
    /// - Throws: `.unrepresentable` for NaN and the infinities, unless the options name strings for them.
    public mutating func writeReal(_ r: Double, what: String) throws(PropertyListError) {
        guard r.isFinite else {
            switch options.nonConformingFloatEncodingStrategy {
            case .throw:
                throw PropertyListError(.unrepresentable, "\(PropertyListError.nonConformingFloatMessagePrefix) \(what) \(r) unless strings are named for NaN and the infinities")
            case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
                writeString(r.isNaN ? nan : r > 0 ? positiveInfinity : negativeInfinity)
            }
            return
        }
        writeFiniteReal(r)
    }

    /// A finite real: Swift's `description` without a trailing `.0`.
    @inlinable @inline(__always)
    public mutating func writeFiniteReal(_ r: Double) {
        // Whole numbers below 2^53 are written by `description` as their digits and ".0"; writing
        // the digits directly saves making a String for each.
        if r == r.rounded(.towardZero), r.magnitude < 9_007_199_254_740_992 {
            if r == 0 {
                if r.sign == .minus { out.append("-0") } else { out.append(UInt8(ascii: "0")) }
            } else {
                let i = Int64(r)
                out.appendDecimal(i.magnitude, negative: i < 0)
            }
            return
        }
        var text = r.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(string: text)
    }

    private mutating func writeDate(_ date: Date) throws(PropertyListError) {
        switch options.dateEncodingStrategy {
        case .deferredToDate: try writeReal(date.timeIntervalSinceReferenceDate, what: "date")
        case .secondsSince1970: try writeReal(date.timeIntervalSince1970, what: "date")
        case .millisecondsSince1970: try writeReal(1000.0 * date.timeIntervalSince1970, what: "date")
        case .iso8601:
            guard date.timeIntervalSinceReferenceDate.isFinite else {
                throw PropertyListError(.unrepresentable, "the date \(date.timeIntervalSinceReferenceDate) has no ISO 8601 form")
            }
            writeString(date.formatted(.iso8601))
        }
    }

    public mutating func writeData(_ data: Data, level: Int) {
        data.withUnsafeBytes { writeData(bytes: $0, level: level) }
    }

    /// `writeData(_:level:)` of bytes that need not be `Data` (a range of a larger input).
    public mutating func writeData(bytes: UnsafeRawBufferPointer, level: Int) {
        switch options.dataEncodingStrategy {
        case .deferredToData:
            guard !bytes.isEmpty else { return writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            out.append(UInt8(ascii: "["))
            for (i, byte) in bytes.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                out.appendDecimal(UInt64(byte))
            }
            newline(level)
            out.append(UInt8(ascii: "]"))
        case .base64:
            out.append(UInt8(ascii: "\""))
            appendBase64(bytes)
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Each 12 bits' two base64 characters, as the little-endian `UInt16` they are stored as:
    /// two look-ups for three bytes instead of four.
    private static let base64Pairs: [UInt16] = {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        return (0..<4096).map { UInt16(alphabet[$0 >> 6]) | UInt16(alphabet[$0 & 0x3F]) << 8 }
    }()

    /// The same pairs with each `/` escaped, as the little-endian `UInt32` they are stored as,
    /// their length in the top byte's place (two to four bytes).
    private static let escapedBase64Pairs: [UInt32] = base64Pairs.map { pair in
        var bytes: [UInt8] = []
        for c in [UInt8(truncatingIfNeeded: pair), UInt8(truncatingIfNeeded: pair >> 8)] {
            if c == UInt8(ascii: "/") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(c)
        }
        var word: UInt32 = 0
        for (i, b) in bytes.enumerated() { word |= UInt32(b) << (8 * i) }
        return word
    }

    /// The length of each escaped pair.
    private static let escapedBase64Lengths: [UInt8] = base64Pairs.map { pair in
        2 + (pair & 0xFF == UInt16(UInt8(ascii: "/")) ? 1 : 0) + (pair >> 8 == UInt16(UInt8(ascii: "/")) ? 1 : 0)
    }

    /// Standard base64 with padding and no line breaks, `/` escaped like any string's.
    ///
    /// Written through a pointer into the reserved output, three bytes at a time as two pairs of
    /// characters (`base64Pairs`, or with slashes escaped `escapedBase64Pairs`), each stored
    /// whole: the data of an archive (a typedstream's notes, images) is most of its JSON.
    private mutating func appendBase64(_ raw: UnsafeRawBufferPointer) {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        let table = alphabet.utf8Start
        let escapes = escapesSlashes
        // At most two bytes per character (an escaped slash) plus the padding, and room for
        // the last pair's whole store.
        let (groups, _) = ((raw.count + 2) / 3).multipliedReportingOverflow(by: 8)
        out.reserve(groups &+ 8)
        let start = out.base + out.count
        guard let source = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let n = raw.count
        var d = start
        @inline(__always)
        func emit(_ c: UInt8) {
            if c == UInt8(ascii: "/"), escapes {
                d[0] = UInt8(ascii: "\\")
                d += 1
            }
            d[0] = c
            d += 1
        }
        // Whole 24-byte blocks with the vector encoder where the CPU has one; the rest here.
        var i: Int
        if escapes {
            var written = 0
            i = archivist_base64_encode_blocks_escaping_slashes(source, n, d, &written)
            d += written
        } else {
            i = archivist_base64_encode_blocks(source, n, d)
            d += i / 3 * 4
        }
        let raw8 = UnsafeRawPointer(source)
        if escapes {
            Self.escapedBase64Pairs.withUnsafeBufferPointer { pairs in
                Self.escapedBase64Lengths.withUnsafeBufferPointer { lengths in
                    // Six bytes at a time from one load (of eight, while eight are there).
                    while i + 8 <= n {
                        let x = UInt64(bigEndian: raw8.loadUnaligned(fromByteOffset: i, as: UInt64.self)) >> 16
                        @inline(__always) func store(_ index: Int) {
                            UnsafeMutableRawPointer(d).storeBytes(of: pairs[index].littleEndian, as: UInt32.self)
                            d += Int(lengths[index])
                        }
                        store(Int(truncatingIfNeeded: x >> 36) & 0xFFF)
                        store(Int(truncatingIfNeeded: x >> 24) & 0xFFF)
                        store(Int(truncatingIfNeeded: x >> 12) & 0xFFF)
                        store(Int(truncatingIfNeeded: x) & 0xFFF)
                        i += 6
                    }
                    while i + 3 <= n {
                        let v = Int(source[i]) << 16 | Int(source[i + 1]) << 8 | Int(source[i + 2])
                        let high = v >> 12, low = v & 0xFFF
                        UnsafeMutableRawPointer(d).storeBytes(of: pairs[high].littleEndian, as: UInt32.self)
                        d += Int(lengths[high])
                        UnsafeMutableRawPointer(d).storeBytes(of: pairs[low].littleEndian, as: UInt32.self)
                        d += Int(lengths[low])
                        i += 3
                    }
                }
            }
        } else {
            Self.base64Pairs.withUnsafeBufferPointer { pairs in
                // Six bytes at a time from one load (of eight, while eight are there), eight
                // characters in one store.
                while i + 8 <= n {
                    let x = UInt64(bigEndian: raw8.loadUnaligned(fromByteOffset: i, as: UInt64.self)) >> 16
                    let word = UInt64(pairs[Int(truncatingIfNeeded: x >> 36) & 0xFFF]) | UInt64(pairs[Int(truncatingIfNeeded: x >> 24) & 0xFFF]) << 16
                        | UInt64(pairs[Int(truncatingIfNeeded: x >> 12) & 0xFFF]) << 32 | UInt64(pairs[Int(truncatingIfNeeded: x) & 0xFFF]) << 48
                    UnsafeMutableRawPointer(d).storeBytes(of: word.littleEndian, as: UInt64.self)
                    d += 8
                    i += 6
                }
                while i + 3 <= n {
                    let v = Int(source[i]) << 16 | Int(source[i + 1]) << 8 | Int(source[i + 2])
                    let word = UInt32(pairs[v >> 12]) | UInt32(pairs[v & 0xFFF]) << 16
                    UnsafeMutableRawPointer(d).storeBytes(of: word.littleEndian, as: UInt32.self)
                    d += 4
                    i += 3
                }
            }
        }
        if n - i == 1 {
            let v = UInt32(source[i]) << 16
            emit(table[Int(v >> 18)]); emit(table[Int(v >> 12 & 0x3F)])
            d[0] = UInt8(ascii: "="); d[1] = UInt8(ascii: "=")
            d += 2
        } else if n - i == 2 {
            let v = UInt32(source[i]) << 16 | UInt32(source[i + 1]) << 8
            emit(table[Int(v >> 18)]); emit(table[Int(v >> 12 & 0x3F)]); emit(table[Int(v >> 6 & 0x3F)])
            d[0] = UInt8(ascii: "=")
            d += 1
        }
        out.count += d - start
    }

    // MARK: Strings

    /// A string in quotes, escaped as JSONEncoder escapes it.
    @inlinable @inline(__always)
    public mutating func writeString(_ s: String) {
        var s = s
        s.withUTF8 { writeString(utf8: $0) }
    }

    /// UTF-8 text in quotes, escaped as JSONEncoder escapes it.
    @inlinable
    public mutating func writeString(utf8 b: UnsafeBufferPointer<UInt8>) {
        // Quotes and the text, when nothing needs escaping (the common case): one copy.
        out.reserve(b.count + 2)
        out.appendUnchecked(UInt8(ascii: "\""))
        appendEscaped(b)
        out.append(UInt8(ascii: "\""))
    }

    /// A string with lone surrogates: valid pairs as UTF-8, each lone unit as `\udXXX`.
    private mutating func writeUTF16(_ units: [UInt16]) {
        out.append(UInt8(ascii: "\""))
        var pending: [UInt8] = []
        var i = 0
        while i < units.count {
            let u = units[i]
            if (0xD800...0xDBFF).contains(u), i + 1 < units.count, (0xDC00...0xDFFF).contains(units[i + 1]) {
                let scalar = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(units[i + 1]) - 0xDC00)
                TextDecoding.appendGeneralizedUTF8(scalar, to: &pending)
                i += 2
            } else if (0xD800...0xDFFF).contains(u) {
                pending.withUnsafeBufferPointer { appendEscaped($0) }
                pending.removeAll(keepingCapacity: true)
                out.append("\\u")
                appendHex(UInt8(u >> 8))
                appendHex(UInt8(u & 0xFF))
                i += 1
            } else {
                TextDecoding.appendGeneralizedUTF8(UInt32(u), to: &pending)
                i += 1
            }
        }
        pending.withUnsafeBufferPointer { appendEscaped($0) }
        out.append(UInt8(ascii: "\""))
    }

    /// Escapes as JSONEncoder does: `"`, `\`, `/` (unless asked not to) and control characters.
    @inlinable
    public mutating func appendEscaped(_ b: UnsafeBufferPointer<UInt8>) {
        // Most text needs no escaping: find the first eight bytes that might, a word at a time.
        var start = 0
        if let base = b.baseAddress {
            let raw = UnsafeRawPointer(base)
            while start + 8 <= b.count, !Self.mayNeedEscaping(raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)) {
                start += 8
            }
        }
        if start > 0 { out.append(UnsafeBufferPointer(rebasing: b[0..<start])) }
        var run = start
        let slash: UInt8 = escapesSlashes ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        for i in start..<b.count {
            let c = b[i]
            guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c == slash else { continue }
            if run < i { out.append(UnsafeBufferPointer(rebasing: b[run..<i])) }
            switch c {
            case UInt8(ascii: "\""): out.append("\\\"")
            case UInt8(ascii: "\\"): out.append("\\\\")
            case UInt8(ascii: "/"): out.append("\\/")
            case 0x08: out.append("\\b")
            case 0x0C: out.append("\\f")
            case 0x0A: out.append("\\n")
            case 0x0D: out.append("\\r")
            case 0x09: out.append("\\t")
            default:
                out.append("\\u00")
                appendHex(c)
            }
            run = i + 1
        }
        if run < b.count { out.append(UnsafeBufferPointer(rebasing: b[run...])) }
    }

    /// Whether any of the eight bytes of `word` is a control character, `"`, `\\` or `/`:
    /// exact for "none", so a word it passes can be copied as it is.
    @inlinable @inline(__always)
    static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & high != 0 }
        // A byte below 0x20; then bytes equal to `"`, `\\` and `/` (escaped or not, checking it
        // only costs a fallback to the byte-by-byte loop).
        let below = (word &- ones &* 0x20) & ~word & high != 0
        return below || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) || hasZeroByte(word ^ (ones &* 0x2F))
    }

    /// Two lowercase hex digits, as JSONEncoder writes them.
    @usableFromInline
    mutating func appendHex(_ byte: UInt8) {
        let digits: StaticString = "0123456789abcdef"
        let d = digits.utf8Start
        out.reserve(2)
        out.appendUnchecked(d[Int(byte >> 4)])
        out.appendUnchecked(d[Int(byte & 0x0F)])
    }
}
