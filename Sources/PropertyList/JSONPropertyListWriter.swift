import Foundation

/// Writes property-list values as JSON, spelled as JSONEncoder spells the same values.
///
/// With the default options a default `JSONDecoder()` decodes the output into the Codable type
/// the property list came from: data is base64, a date is seconds since 2001-01-01. Reals use
/// Swift's shortest round-trip form without a trailing `.0`, `/` is written `\/`, and control
/// characters are `\u00XX`, all as JSONEncoder writes them. `JSONWriteOptions` describes how
/// UIDs, sets, null and non-string keys come out.
public struct JSONPropertyListWriter: Sendable {
    public var options: JSONWriteOptions

    public init(options: JSONWriteOptions = .init()) {
        self.options = options
    }

    /// The JSON text of `value`, UTF-8 encoded, without a trailing newline (as JSONEncoder).
    ///
    /// - Throws: `PropertyListError` with code `.unrepresentable` and the key path of a NaN or
    ///   infinite real (unless `nonConformingFloatEncodingStrategy` names strings for them), or of
    ///   a non-finite date written as ISO 8601.
    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        var emitter = Emitter(options: options)
        try emitter.write(value, level: 0)
        return Data(emitter.out)
    }
}

extension JSONPropertyListWriter {
    /// Appends JSON to a byte buffer. Key paths are added to errors only as they propagate,
    /// so writing costs nothing for them.
    struct Emitter {
        var out: [UInt8] = []
        let options: JSONWriteOptions
        let pretty: Bool
        let sorted: Bool
        let escapesSlashes: Bool

        init(options: JSONWriteOptions) {
            self.options = options
            pretty = options.outputFormatting.contains(.prettyPrinted)
            sorted = options.outputFormatting.contains(.sortedKeys)
            escapesSlashes = !options.outputFormatting.contains(.withoutEscapingSlashes)
            out.reserveCapacity(4096)
        }

        mutating func write(_ value: PropertyListValue, level: Int) throws(PropertyListError) {
            switch value {
            case .string(let s): writeString(s)
            case .invalidUTF16String(let units): writeUTF16(units)
            case .integer(let i): writeInteger(i)
            case .real(let r): try writeReal(r, what: "real")
            case .bool(let b): append(b ? "true" : "false")
            case .null: append("null")
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
                writeDigits(of: n, negative: false)
                newline(level)
                out.append(UInt8(ascii: "}"))
            }
        }

        // MARK: Collections

        private mutating func writeArray(_ items: [PropertyListValue], level: Int) throws(PropertyListError) {
            guard !items.isEmpty else { return writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                do { try write(item, level: level + 1) } catch { throw error.under("[\(i)]") }
            }
            newline(level)
            out.append(UInt8(ascii: "]"))
        }

        private mutating func writeDictionary(_ d: PropertyListDictionary, level: Int) throws(PropertyListError) {
            guard !d.isEmpty else { return writeEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), level: level) }
            var allStrings = true
            var allIntegers = true
            for key in d.keys {
                switch key {
                case .string, .invalidUTF16String: allIntegers = false
                case .integer: allStrings = false
                default:
                    allStrings = false
                    allIntegers = false
                }
            }
            guard allStrings || allIntegers else { return try writeKeyValueArray(d, level: level) }

            var order = Array(d.indices)
            if sorted {
                // JSONEncoder orders keys by their UTF-8 bytes; ties keep the order read.
                let sortKeys = d.keys.map { Array(Self.keyText($0).utf8) }
                order.sort { a, b in
                    sortKeys[a] == sortKeys[b] ? a < b : sortKeys[a].lexicographicallyPrecedes(sortKeys[b])
                }
            }
            out.append(UInt8(ascii: "{"))
            for (n, i) in order.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                let key = d.keys[i]
                if case .invalidUTF16String(let units) = key { writeUTF16(units) } else { writeString(Self.keyText(key)) }
                writeColon()
                do { try write(d.values[i], level: level + 1) } catch { throw error.under(Self.keyText(key)) }
            }
            newline(level)
            out.append(UInt8(ascii: "}"))
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
        private mutating func writeEmpty(_ open: UInt8, _ close: UInt8, level: Int) {
            out.append(open)
            if pretty {
                out.append(0x0A)
                newline(level)
            }
            out.append(close)
        }

        @inline(__always)
        private mutating func newline(_ level: Int) {
            guard pretty else { return }
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }

        @inline(__always)
        private mutating func writeColon() {
            if pretty {
                append(" : ")
            } else {
                out.append(UInt8(ascii: ":"))
            }
        }

        // MARK: Scalars

        private mutating func append(_ s: StaticString) {
            s.withUTF8Buffer { out.append(contentsOf: $0) }
        }

        private mutating func writeInteger(_ i: PropertyListInteger) {
            if let v = i.int64Value {
                writeDigits(of: v.magnitude, negative: v < 0)
            } else {
                out.append(contentsOf: i.description.utf8)
            }
        }

        private mutating func writeDigits(of magnitude: UInt64, negative: Bool) {
            if negative { out.append(UInt8(ascii: "-")) }
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
            var count = 0
            var v = magnitude
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[23 - count] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                    count += 1
                } while v > 0
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
            }
        }

        private mutating func writeReal(_ r: Double, what: String) throws(PropertyListError) {
            guard r.isFinite else {
                switch options.nonConformingFloatEncodingStrategy {
                case .throw:
                    throw PropertyListError(
                        .unrepresentable,
                        "JSON cannot hold the \(what) \(r); choose strings for it with nonConformingFloatEncodingStrategy")
                case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
                    writeString(r.isNaN ? nan : r > 0 ? positiveInfinity : negativeInfinity)
                }
                return
            }
            // JSONEncoder writes Swift's shortest round-trip form, dropping a trailing ".0".
            var text = r.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            out.append(contentsOf: text.utf8)
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

        private mutating func writeData(_ data: Data, level: Int) {
            switch options.dataEncodingStrategy {
            case .deferredToData:
                guard !data.isEmpty else { return writeEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), level: level) }
                out.append(UInt8(ascii: "["))
                for (i, byte) in data.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    newline(level + 1)
                    writeDigits(of: UInt64(byte), negative: false)
                }
                newline(level)
                out.append(UInt8(ascii: "]"))
            case .base64:
                out.append(UInt8(ascii: "\""))
                appendBase64(data)
                out.append(UInt8(ascii: "\""))
            }
        }

        /// Standard base64 with padding and no line breaks, `/` escaped like any string's.
        private mutating func appendBase64(_ data: Data) {
            let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            out.reserveCapacity(out.count + (data.count + 2) / 3 * 4 + 16)
            alphabet.withUTF8Buffer { table in
                data.withUnsafeBytes { raw in
                    var i = 0
                    let n = raw.count
                    func emit(_ v: UInt32) {
                        let c = table[Int(v & 0x3F)]
                        if c == UInt8(ascii: "/"), escapesSlashes { out.append(UInt8(ascii: "\\")) }
                        out.append(c)
                    }
                    while i + 3 <= n {
                        let v = UInt32(raw[i]) << 16 | UInt32(raw[i + 1]) << 8 | UInt32(raw[i + 2])
                        emit(v >> 18); emit(v >> 12); emit(v >> 6); emit(v)
                        i += 3
                    }
                    if n - i == 1 {
                        let v = UInt32(raw[i]) << 16
                        emit(v >> 18); emit(v >> 12)
                        out.append(UInt8(ascii: "=")); out.append(UInt8(ascii: "="))
                    } else if n - i == 2 {
                        let v = UInt32(raw[i]) << 16 | UInt32(raw[i + 1]) << 8
                        emit(v >> 18); emit(v >> 12); emit(v >> 6)
                        out.append(UInt8(ascii: "="))
                    }
                }
            }
        }

        // MARK: Strings

        private mutating func writeString(_ s: String) {
            out.append(UInt8(ascii: "\""))
            var s = s
            s.withUTF8 { appendEscaped($0) }
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
                    append("\\u")
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
        private mutating func appendEscaped(_ b: UnsafeBufferPointer<UInt8>) {
            var run = 0
            for i in 0..<b.count {
                let c = b[i]
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || (c == UInt8(ascii: "/") && escapesSlashes)
                else { continue }
                if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[run..<i])) }
                switch c {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "/"): append("\\/")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                default:
                    append("\\u00")
                    appendHex(c)
                }
                run = i + 1
            }
            if run < b.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[run...])) }
        }

        /// Two lowercase hex digits, as JSONEncoder writes them.
        private mutating func appendHex(_ byte: UInt8) {
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { d in
                out.append(d[Int(byte >> 4)])
                out.append(d[Int(byte & 0x0F)])
            }
        }
    }
}

extension PropertyListError {
    /// The same error one level further from the root.
    fileprivate func under(_ component: String) -> PropertyListError {
        var copy = self
        copy.keyPath.insert(component, at: 0)
        return copy
    }
}
