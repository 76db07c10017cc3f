import Foundation
import PropertyList

/// A property-list value as both readers are compared: every type kept apart (integer, real,
/// bool, UID), strings as UTF-16 code units (lone surrogates included), reals and dates by their
/// bits, dictionaries and sets without order.
indirect enum ParityValue: Hashable {
    struct Entry: Hashable {
        var key: ParityValue
        var value: ParityValue
    }

    case string([UInt16])
    case integer(high: Int64, low: UInt64)
    /// The bits of a Double (a binary float32 is widened, as both readers widen it).
    case real(UInt64)
    case bool(Bool)
    /// The bits of the seconds since 2001-01-01, a Double.
    case date(UInt64)
    case data([UInt8])
    case array([ParityValue])
    case dictionary([Entry])
    case set([ParityValue])
    case uid(UInt64)
    case null
    /// Something neither reader should produce, described.
    case unknown(String)
}

/// Which format a reader said the input was.
enum ParityFormat: UInt8, CustomStringConvertible {
    case binary, xml, openStep, json, unknown

    var description: String {
        switch self {
        case .binary: "binary"
        case .xml: "xml"
        case .openStep: "openstep"
        case .json: "json"
        case .unknown: "unknown"
        }
    }

    init(_ format: PropertyListFormat) {
        switch format {
        case .binary: self = .binary
        case .xml: self = .xml
        case .openStep: self = .openStep
        case .json: self = .json
        }
    }
}

/// What one reader made of one input.
enum ParityOutcome {
    case accepted(format: ParityFormat, value: ParityValue)
    case refused(message: String)
    /// The reader's process died (CF's `fatalError`, `abort`, a fault); the signal or status.
    case crashed(String)
    /// The reader did not answer within the time allowed.
    case hung

    var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }

    /// One word for tables: accepted, refused, crashed or hung.
    var verdict: String {
        switch self {
        case .accepted: "accepted"
        case .refused: "refused"
        case .crashed: "crashed"
        case .hung: "hung"
        }
    }

    var summary: String {
        switch self {
        case .accepted(let format, let value): "\(format): \(value.shortDescription)"
        case .refused(let message): "refused: \(message)"
        case .crashed(let how): "crashed (\(how))"
        case .hung: "hung"
        }
    }
}

extension ParityValue {
    /// Archivist's value, as the comparison sees it.
    init(_ value: PropertyListValue) {
        switch value {
        case .string(let s): self = .string(Array(s.utf16))
        case .invalidUTF16String(let units): self = .string(units)
        case .integer(let i): self = .integer(high: i.high, low: i.low)
        case .real(let d): self = .real(d.bitPattern)
        case .bool(let b): self = .bool(b)
        case .date(let d): self = .date(d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let d): self = .data(Array(d))
        case .array(let a): self = .array(a.map(ParityValue.init))
        case .dictionary(let d): self = .dictionary(d.map { Entry(key: ParityValue($0.key), value: ParityValue($0.value)) })
        case .set(let s): self = .set(s.map(ParityValue.init))
        case .uid(let u): self = .uid(u)
        case .null: self = .null
        }
    }
}

// MARK: - Encoding (the oracle's answers cross a pipe) and comparison

extension ParityValue {
    private enum Tag: UInt8 {
        case string = 0x73, integer = 0x69, real = 0x72, `true` = 0x74, `false` = 0x66, date = 0x64
        case data = 0x44, array = 0x61, dictionary = 0x6D, set = 0x53, uid = 0x75, null = 0x6E, unknown = 0x3F
    }

    /// Appends the value's bytes. With `canonical`, dictionary entries are sorted by their
    /// encoded keys and values, every entry kept, set members are sorted and
    /// unique, and every NaN has one pattern: equal values then encode to equal bytes.
    func encode(into out: inout [UInt8], canonical: Bool = false) {
        func count(_ n: Int) { withUnsafeBytes(of: UInt32(n).littleEndian) { out.append(contentsOf: $0) } }
        func word(_ w: UInt64) { withUnsafeBytes(of: w.littleEndian) { out.append(contentsOf: $0) } }
        switch self {
        case .string(let units):
            out.append(Tag.string.rawValue)
            count(units.count)
            for u in units { withUnsafeBytes(of: u.littleEndian) { out.append(contentsOf: $0) } }
        case .integer(let high, let low):
            out.append(Tag.integer.rawValue)
            word(UInt64(bitPattern: high))
            word(low)
        case .real(let bits):
            out.append(Tag.real.rawValue)
            word(canonical && Double(bitPattern: bits).isNaN ? Double.nan.bitPattern : bits)
        case .bool(let b):
            out.append(b ? Tag.true.rawValue : Tag.false.rawValue)
        case .date(let bits):
            out.append(Tag.date.rawValue)
            word(bits)
        case .data(let bytes):
            out.append(Tag.data.rawValue)
            count(bytes.count)
            out.append(contentsOf: bytes)
        case .array(let items):
            out.append(Tag.array.rawValue)
            count(items.count)
            for item in items { item.encode(into: &out, canonical: canonical) }
        case .dictionary(let entries):
            out.append(Tag.dictionary.rawValue)
            if canonical {
                // Every entry, sorted by key and then value: both readers keep one of keys CF
                // finds equal, but two UIDs of one value from two objects of a binary file are
                // two keys for CF (CFEqual compares UIDs by identity), and both stay.
                var pairs: [(key: [UInt8], value: [UInt8])] = []
                for e in entries {
                    var k: [UInt8] = []
                    e.key.encode(into: &k, canonical: true)
                    var v: [UInt8] = []
                    e.value.encode(into: &v, canonical: true)
                    pairs.append((k, v))
                }
                pairs.sort { $0.key != $1.key ? $0.key.lexicographicallyPrecedes($1.key) : $0.value.lexicographicallyPrecedes($1.value) }
                count(pairs.count)
                for pair in pairs {
                    out.append(contentsOf: pair.key)
                    out.append(contentsOf: pair.value)
                }
            } else {
                count(entries.count)
                for e in entries {
                    e.key.encode(into: &out)
                    e.value.encode(into: &out)
                }
            }
        case .set(let members):
            out.append(Tag.set.rawValue)
            if canonical {
                let encoded = Set(members.map { m -> [UInt8] in
                    var b: [UInt8] = []
                    m.encode(into: &b, canonical: true)
                    return b
                }).sorted(by: { $0.lexicographicallyPrecedes($1) })
                count(encoded.count)
                for b in encoded { out.append(contentsOf: b) }
            } else {
                count(members.count)
                for m in members { m.encode(into: &out) }
            }
        case .uid(let u):
            out.append(Tag.uid.rawValue)
            word(u)
        case .null:
            out.append(Tag.null.rawValue)
        case .unknown(let what):
            out.append(Tag.unknown.rawValue)
            let bytes = Array(what.utf8)
            count(bytes.count)
            out.append(contentsOf: bytes)
        }
    }

    /// The canonical bytes: equal for values the comparison calls equal.
    var canonicalBytes: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out, canonical: true)
        return out
    }

    /// Reads a value written by `encode(into:)`; nil when the bytes are not one.
    static func decode(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> ParityValue? {
        func count() -> Int? {
            guard offset + 4 <= bytes.count else { return nil }
            let n = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
            offset += 4
            return Int(n)
        }
        func word() -> UInt64? {
            guard offset + 8 <= bytes.count else { return nil }
            let w = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
            offset += 8
            return w
        }
        guard offset < bytes.count, let tag = Tag(rawValue: bytes[offset]) else { return nil }
        offset += 1
        switch tag {
        case .string:
            guard let n = count(), offset + 2 * n <= bytes.count else { return nil }
            var units = [UInt16]()
            units.reserveCapacity(n)
            for i in 0..<n { units.append(bytes.loadUnaligned(fromByteOffset: offset + 2 * i, as: UInt16.self).littleEndian) }
            offset += 2 * n
            return .string(units)
        case .integer:
            guard let h = word(), let l = word() else { return nil }
            return .integer(high: Int64(bitPattern: h), low: l)
        case .real:
            return word().map { .real($0) }
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .date:
            return word().map { .date($0) }
        case .data:
            guard let n = count(), offset + n <= bytes.count else { return nil }
            defer { offset += n }
            return .data(Array(bytes[offset..<(offset + n)]))
        case .array, .set:
            guard let n = count(), n <= bytes.count - offset else { return nil }
            var items: [ParityValue] = []
            for _ in 0..<n {
                guard let item = decode(bytes, at: &offset) else { return nil }
                items.append(item)
            }
            return tag == .array ? .array(items) : .set(items)
        case .dictionary:
            guard let n = count(), n <= bytes.count - offset else { return nil }
            var entries: [Entry] = []
            for _ in 0..<n {
                guard let k = decode(bytes, at: &offset), let v = decode(bytes, at: &offset) else { return nil }
                entries.append(Entry(key: k, value: v))
            }
            return .dictionary(entries)
        case .uid:
            return word().map { .uid($0) }
        case .null:
            return .null
        case .unknown:
            guard let n = count(), offset + n <= bytes.count else { return nil }
            defer { offset += n }
            return .unknown(String(decoding: bytes[offset..<(offset + n)], as: UTF8.self))
        }
    }
}

// MARK: - Descriptions for reports

extension ParityValue {
    /// A one-line description, cut to about `limit` characters.
    func description(limit: Int) -> String {
        var out = ""
        describe(into: &out, limit: limit)
        return out.count > limit ? String(out.prefix(limit)) + "…" : out
    }

    var shortDescription: String { description(limit: 160) }

    private func describe(into out: inout String, limit: Int) {
        guard out.count <= limit else { return }
        switch self {
        case .string(let units):
            out += "\""
            for scalar in String(decoding: units, as: UTF16.self).unicodeScalars {
                out += scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
            if String(decoding: units, as: UTF16.self).utf16.elementsEqual(units) == false { out += "(lone surrogates)" }
            out += "\""
        case .integer(let high, let low):
            out += "int " + String(Int128(high) << 64 | Int128(low))
        case .real(let bits):
            out += "real \(Double(bitPattern: bits))"
        case .bool(let b):
            out += b ? "true" : "false"
        case .date(let bits):
            out += "date \(Double(bitPattern: bits))"
        case .data(let bytes):
            out += "<" + bytes.prefix(24).map { String(format: "%02x", $0) }.joined() + (bytes.count > 24 ? "…(\(bytes.count))" : "") + ">"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                item.describe(into: &out, limit: limit)
                if out.count > limit { break }
            }
            out += "]"
        case .dictionary(let entries):
            out += "{"
            for (i, e) in entries.enumerated() {
                if i > 0 { out += ", " }
                e.key.describe(into: &out, limit: limit)
                out += ": "
                e.value.describe(into: &out, limit: limit)
                if out.count > limit { break }
            }
            out += "}"
        case .set(let members):
            out += "set("
            for (i, m) in members.enumerated() {
                if i > 0 { out += ", " }
                m.describe(into: &out, limit: limit)
            }
            out += ")"
        case .uid(let u):
            out += "uid \(u)"
        case .null:
            out += "null"
        case .unknown(let what):
            out += "?\(what)"
        }
    }
}

extension ParityValue {
    /// Where two values first differ, in words: the path and both sides there; nil when equal.
    static func firstDifference(cf: ParityValue, ours: ParityValue, path: String = "root") -> String? {
        if cf.canonicalBytes == ours.canonicalBytes { return nil }
        switch (cf, ours) {
        case (.array(let a), .array(let b)) where a.count == b.count:
            for i in a.indices {
                if let d = firstDifference(cf: a[i], ours: b[i], path: path + "[\(i)]") { return d }
            }
        case (.dictionary(let a), .dictionary(let b)) where Set(a.map(\.key.canonicalBytes)).count == a.count
                && Set(b.map(\.key.canonicalBytes)).count == b.count:
            func byKey(_ entries: [Entry]) -> [[UInt8]: Entry] {
                var map: [[UInt8]: Entry] = [:]
                for e in entries { map[e.key.canonicalBytes] = e }
                return map
            }
            let ma = byKey(a), mb = byKey(b)
            for (k, e) in ma.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                guard let other = mb[k] else { return "\(path): key \(e.key.description(limit: 60)) only in CF's (\(ma.count) keys against \(mb.count))" }
                if let d = firstDifference(cf: e.value, ours: other.value, path: path + "." + e.key.description(limit: 40)) { return d }
            }
            for (k, e) in mb where ma[k] == nil {
                return "\(path): key \(e.key.description(limit: 60)) only in Archivist's (\(ma.count) keys against \(mb.count))"
            }
        default:
            break
        }
        return "\(path): CF \(cf.description(limit: 100)), Archivist \(ours.description(limit: 100))"
    }
}
