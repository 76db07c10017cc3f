import Foundation
import PropertyList

/// Reads the meaning of an object of a known class from its fields.
///
/// Decoding never fails: a known class whose fields are not as Apple writes them is shown as a
/// generic object, so a damaged or unexpected archive still reads.
struct ArchivedContentDecoder {
    let raw: RawObjects
    let object: ArchivedObject

    init(raw: RawObjects, object: ArchivedObject) {
        self.raw = raw
        self.object = object
    }

    init(raw: [PropertyListValue], object: ArchivedObject) {
        self.init(raw: RawObjects(raw), object: object)
    }

    typealias Decoder = @Sendable (ArchivedContentDecoder) -> ArchivedContent?

    func decode() -> ArchivedContent {
        guard let archivedClass = object.archivedClass, let decoder = Self.decoder(for: archivedClass) else { return .object }
        return decoder(self) ?? .object
    }

    /// The decoder for a class: its written name first, then its claimed superclasses, so that
    /// subclasses of collections still show their elements. (Display only: checks never trust
    /// the chain.)
    static func decoder(for archivedClass: ArchivedClass) -> Decoder? {
        decoderName(for: archivedClass).flatMap { decoders[$0] }
    }

    /// The name whose decoder `decoder(for:)` picks.
    static func decoderName(for archivedClass: ArchivedClass) -> String? {
        for name in [archivedClass.name] + archivedClass.chain where decoders[name] != nil {
            return name
        }
        return nil
    }

    /// The common classes whose content `KeyedArchiveDecoding` reads straight from the fields
    /// when they hold what Apple writes, falling back to the decoder otherwise.
    enum Shortcut {
        case none
        /// `NS.objects` holding references: `.array`.
        case array
        /// `NS.objects` holding references: `.set`.
        case set
        /// `NS.keys` and `NS.objects` holding as many references: `.dictionary`.
        case dictionary
        /// `NS.time` holding a real: `.date`.
        case date
        /// `NS.relative` present: `.url`, with `NS.base` or null.
        case url
        /// `NS.uuidbytes` holding 16 bytes inline: `.uuid`.
        case uuid
        /// NSNull, whatever its fields: `.null`.
        case null
    }

    static func shortcut(forDecoderNamed name: String?) -> Shortcut {
        switch name {
        case "NSArray", "NSMutableArray": .array
        case "NSSet", "NSMutableSet": .set
        case "NSDictionary", "NSMutableDictionary": .dictionary
        case "NSDate": .date
        case "NSURL": .url
        case "NSUUID": .uuid
        case "NSNull": .null
        default: .none
        }
    }

    /// The field keys the shortcuts read, by the index `shortcutContent` takes them at.
    static let shortcutKeys = ["NS.objects", "NS.keys", "NS.time", "NS.relative", "NS.base", "NS.uuidbytes"]

    /// The content those decoders give for fields in the common layout, or nil to ask them.
    static func shortcutContent(_ shortcut: Shortcut, fields: [ArchivedField]) -> ArchivedContent? {
        var first = FirstFields()
        for (i, field) in fields.enumerated() {
            if let role = shortcutKeys.firstIndex(of: field.key) { first.note(role, at: i) }
        }
        return shortcutContent(shortcut, fields: fields, first: first)
    }

    /// Where the first field with each of `shortcutKeys` is in an object's fields (-1: none).
    struct FirstFields {
        var at: (Int, Int, Int, Int, Int, Int) = (-1, -1, -1, -1, -1, -1)

        @inline(__always)
        mutating func note(_ role: Int, at index: Int) {
            switch role {
            case 0: if at.0 < 0 { at.0 = index }
            case 1: if at.1 < 0 { at.1 = index }
            case 2: if at.2 < 0 { at.2 = index }
            case 3: if at.3 < 0 { at.3 = index }
            case 4: if at.4 < 0 { at.4 = index }
            default: if at.5 < 0 { at.5 = index }
            }
        }
    }

    /// `shortcutContent(_:fields:)` with the first fields of each key already found.
    static func shortcutContent(_ shortcut: Shortcut, fields: [ArchivedField], first: FirstFields) -> ArchivedContent? {
        // `value(_:)` reads the first field with a key.
        func value(_ index: Int) -> ArchivedValue? { index >= 0 ? fields[index].value : nil }
        switch shortcut {
        case .none:
            return nil
        case .array:
            // `references("NS.objects")` returns the references as they are.
            guard case .array(let elements)? = value(first.at.0) else { return nil }
            return .array(elements)
        case .set:
            guard case .array(let elements)? = value(first.at.0) else { return nil }
            return .set(elements)
        case .dictionary:
            guard case .array(let keys)? = value(first.at.1), case .array(let values)? = value(first.at.0),
                  keys.count == values.count else { return nil }
            return .dictionary(keys: keys, values: values)
        case .date:
            // `double("NS.time")` of an inline real is the real.
            guard case .inline(.real(let seconds))? = value(first.at.2) else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .url:
            // `url()`: the first `NS.relative` and `NS.base`, as they are.
            guard let relative = value(first.at.3) else { return nil }
            return .url(base: value(first.at.4) ?? .null, relative: relative)
        case .uuid:
            // `uuid()` of data held inline; a reference to a data object takes the decoder.
            guard case .inline(.data(let bytes))? = value(first.at.5), bytes.count == 16 else { return nil }
            return .uuid(Self.uuid(bytes))
        case .null:
            return .null
        }
    }

    static let decoders: [String: Decoder] = {
        var d: [String: Decoder] = [:]
        for n in ["NSString", "NSMutableString"] { d[n] = { $0.string() } }
        d["NSNumber"] = { $0.number() }
        for n in ["NSDecimalNumber", "NSDecimal"] { d[n] = { $0.decimal() } }
        for n in ["NSData", "NSMutableData"] { d[n] = { $0.data("NS.data").map { .data($0) } } }
        d["NSDate"] = { $0.double("NS.time").map { .date(Date(timeIntervalSinceReferenceDate: $0)) } }
        d["NSNull"] = { _ in .null }
        for n in ["NSArray", "NSMutableArray"] { d[n] = { $0.references("NS.objects").map { .array($0) } } }
        for n in ["NSSet", "NSMutableSet"] { d[n] = { $0.references("NS.objects").map { .set($0) } } }
        for n in ["NSOrderedSet", "NSMutableOrderedSet"] {
            d[n] = { ($0.references("NS.objects") ?? $0.numberedReferences("NS.object.")).map { .orderedSet($0) } }
        }
        d["NSCountedSet"] = { $0.countedSet() }
        for n in ["NSDictionary", "NSMutableDictionary"] { d[n] = { $0.dictionary() } }
        d["NSURL"] = { $0.url() }
        d["NSUUID"] = { $0.uuid() }
        for n in ["NSAttributedString", "NSMutableAttributedString"] { d[n] = { $0.attributedString() } }
        d["NSValue"] = { $0.geometry() }
        for n in ["NSIndexSet", "NSMutableIndexSet"] { d[n] = { $0.indexSet() } }
        d["NSLocale"] = { $0.string(at: "NS.identifier").map { .locale(identifier: $0) } }
        d["NSTimeZone"] = { $0.string(at: "NS.name").map { .timeZone(name: $0) } }
        d["NSError"] = { $0.error() }
        for n in ["UIColor", "NSColor", "UIDeviceRGBColor", "UIDeviceWhiteColor", "UICachedDeviceRGBColor", "UICachedDeviceWhiteColor"] {
            d[n] = { ArchivedColorDecoder(content: $0).decode().map { .color($0) } }
        }
        d["_NSKeyedCoderOldStyleArray"] = { $0.oldStyleArray() }
        return d
    }()

    // MARK: Field access

    func value(_ key: String) -> ArchivedValue? { object[field: key] }

    /// A field's plist value, following a reference to an inline object.
    func scalar(_ key: String) -> PropertyListValue? {
        guard let v = value(key) else { return nil }
        return scalar(v)
    }

    func scalar(_ v: ArchivedValue) -> PropertyListValue? {
        switch v {
        case .inline(let p): return p
        case .object(let uid) where uid < raw.count:
            switch raw[uid] {
            case .dictionary, .array: return nil
            case let p: return p
            }
        default: return nil
        }
    }

    func double(_ key: String) -> Double? {
        switch scalar(key) {
        case .real(let r)?: return r
        case .integer(let i)?: return i.int64Value.map(Double.init)
        default: return nil
        }
    }

    func int(_ key: String) -> Int? {
        switch scalar(key) {
        case .integer(let i)?: return i.int64Value.map(Int.init)
        case .real(let r)? where r == r.rounded() && abs(r) < 1e18: return Int(r)
        case .bool(let b)?: return b ? 1 : 0
        default: return nil
        }
    }

    /// A string stored inline, as a plain `$objects` string, or as an NSString object.
    func string(at key: String) -> String? {
        guard let v = value(key) else { return nil }
        return Self.string(v, raw: raw)
    }

    static func string(_ v: ArchivedValue, raw: RawObjects) -> String? {
        switch v {
        case .inline(.string(let s)): return s
        case .object(let uid) where uid < raw.count:
            switch raw[uid] {
            case .string(let s): return s
            case .dictionary(let d):
                if case .string(let s)? = d["NS.string"] { return s }
                if case .uid(let u)? = d["NS.string"], u < raw.count, case .string(let s) = raw[Int(u)] { return s }
                if case .data(let bytes)? = d["NS.bytes"] { return String(decoding: bytes, as: UTF8.self) }
                return nil
            default: return nil
            }
        default: return nil
        }
    }

    /// Data stored inline, as plain `$objects` data, or as an NSData object.
    func data(_ key: String) -> Data? {
        value(key).flatMap(dataValue)
    }

    /// `data(_:)` of a field's value.
    func dataValue(_ v: ArchivedValue) -> Data? {
        switch v {
        case .inline(.data(let d)): return d
        case .object(let uid) where uid < raw.count:
            switch raw[uid] {
            case .data(let d): return d
            case .dictionary(let d):
                if case .data(let bytes)? = d["NS.data"] { return bytes }
                if case .uid(let u)? = d["NS.data"], u < raw.count, case .data(let bytes) = raw[Int(u)] { return bytes }
                return nil
            default: return nil
            }
        default: return nil
        }
    }

    /// A list of references, as `NS.objects` and `NS.keys` hold them. An empty list is an
    /// inline empty array.
    func references(_ key: String) -> [ArchivedValue]? {
        switch value(key) {
        case .array(let a)?: return a
        case .inline(.array(let a))?: return a.isEmpty ? [] : a.map { .inline($0) }
        case .object(let uid)? where uid < raw.count:
            // Some writers put the list in its own object.
            if case .array(let a) = raw[uid] {
                return a.map { if case .uid(let u) = $0, u < raw.count { u == 0 ? .null : .object(uid: Int(u)) } else { .inline($0) } }
            }
            return nil
        default: return nil
        }
    }

    /// `NS.object.0`, `NS.object.1`…, as swift-corelibs-foundation writes ordered sets.
    func numberedReferences(_ prefix: String) -> [ArchivedValue]? {
        var out: [ArchivedValue] = []
        while let v = value("\(prefix)\(out.count)") { out.append(v) }
        return out.isEmpty && object.fields.contains(where: { $0.key.hasPrefix(prefix) }) ? nil : out
    }

    // MARK: Classes

    func string() -> ArchivedContent? {
        if let s = string(at: "NS.string") { return .string(s) }
        if let bytes = data("NS.bytes") { return .string(String(decoding: bytes, as: UTF8.self)) }
        return nil
    }

    func number() -> ArchivedContent? {
        for key in ["NS.intval", "NS.dblval", "NS.boolval", "NS.number"] {
            if let v = scalar(key) { return .number(v) }
        }
        return nil
    }

    /// NSDecimal's fields: a little-endian mantissa of 16-bit words, an exponent and a sign.
    func decimal() -> ArchivedContent? {
        // NSDecimal holds its exponent in a signed byte and its length in 0...8 words; any other
        // value is damage, and a huge exponent would otherwise become a string of that many zeros.
        guard let exponent = int("NS.exponent"), (-128...127).contains(exponent),
              let length = int("NS.length"), (0...8).contains(length) else { return nil }
        let negative = int("NS.negative") == 1
        if length == 0 { return .decimalNumber(negative ? "NaN" : "0") }
        guard let mantissaBytes = data("NS.mantissa"), mantissaBytes.count >= length * 2 else { return nil }
        let bigEndian = int("NS.mantissa.bo") == 0
        var mantissa: UInt128 = 0
        let bytes = [UInt8](mantissaBytes)
        for word in (0..<length).reversed() {
            let a = UInt128(bytes[word * 2]), b = UInt128(bytes[word * 2 + 1])
            mantissa = mantissa << 16 | (bigEndian ? a << 8 | b : b << 8 | a)
        }
        var digits = String(mantissa)
        if exponent > 0 {
            digits += String(repeating: "0", count: min(exponent, 256))
        } else if exponent < 0 {
            let places = -exponent
            if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
        }
        return .decimalNumber((negative ? "-" : "") + digits)
    }

    func countedSet() -> ArchivedContent? {
        guard let count = int("NS.count"), count >= 0, count <= object.fields.count else { return nil }
        var members: [ArchivedValue] = []
        var counts: [Int] = []
        for i in 0..<count {
            guard let member = value("NS.object\(i)") else { return nil }
            members.append(member)
            counts.append(int("NS.count\(i)") ?? 1)
        }
        return .countedSet(members, counts: counts)
    }

    func dictionary() -> ArchivedContent? {
        guard let keys = references("NS.keys"), let values = references("NS.objects"), keys.count == values.count else { return nil }
        return .dictionary(keys: keys, values: values)
    }

    func url() -> ArchivedContent? {
        guard let relative = value("NS.relative") else { return nil }
        return .url(base: value("NS.base") ?? .null, relative: relative)
    }

    func uuid() -> ArchivedContent? {
        guard let bytes = data("NS.uuidbytes"), bytes.count == 16 else { return nil }
        return .uuid(Self.uuid(bytes))
    }

    /// The UUID of 16 bytes.
    static func uuid(_ bytes: Data) -> UUID {
        var u: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        // Copied as raw memory: `Data.copyBytes(to:)` goes through generic collection code that
        // costs more than the rest of the object's decoding.
        bytes.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &u) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(16)))
            }
        }
        return UUID(uuid: u)
    }

    /// `NSAttributeInfo` holds varint pairs: a run length and an index into `NSAttributes`.
    func attributedString() -> ArchivedContent? {
        guard let string = value("NSString") else { return nil }
        var attributes: [ArchivedValue] = []
        if let list = references("NSAttributes") {
            attributes = list
        } else if let single = value("NSAttributes") {
            attributes = [single]
        }
        var ranges: [Range<Int>] = []
        if let info = data("NSAttributeInfo") {
            let numbers = Self.varints(info)
            var location = 0
            var i = 0
            while i + 1 < numbers.count {
                let length = numbers[i]
                guard length >= 0, location <= Int.max - length else { return nil }
                ranges.append(location..<location + length)
                location += length
                i += 2
            }
        } else if let text = Self.string(string, raw: raw) {
            ranges = [0..<text.utf16.count]
        }
        return .attributedString(string: string, attributes: attributes, ranges: ranges)
    }

    /// Unsigned LEB128 numbers, as NSIndexSet and NSAttributedString pack them.
    static func varints(_ data: Data) -> [Int] {
        var out: [Int] = []
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in data {
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 {
                out.append(Int(clamping: value))
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return out
    }

    func geometry() -> ArchivedContent? {
        guard let special = int("NS.special") else { return nil }
        func numbers(_ key: String) -> [Double]? {
            guard let text = string(at: key) else { return nil }
            let parts = text.split { "{}, ".contains($0) }.compactMap { Double($0) }
            return parts
        }
        switch special {
        case 1:
            guard let p = numbers("NS.pointval"), p.count == 2 else { return nil }
            return .geometry(.point(x: p[0], y: p[1]))
        case 2:
            guard let s = numbers("NS.sizeval"), s.count == 2 else { return nil }
            return .geometry(.size(width: s[0], height: s[1]))
        case 3:
            guard let r = numbers("NS.rectval"), r.count == 4 else { return nil }
            return .geometry(.rect(x: r[0], y: r[1], width: r[2], height: r[3]))
        case 4:
            guard let location = int("NS.rangeval.location"), let length = int("NS.rangeval.length") else { return nil }
            return .geometry(.range(location: location, length: length))
        case 12:
            guard let top = double("NS.edgeval.top"), let left = double("NS.edgeval.left"),
                  let bottom = double("NS.edgeval.bottom"), let right = double("NS.edgeval.right") else { return nil }
            return .geometry(.edgeInsets(top: top, left: left, bottom: bottom, right: right))
        default:
            return nil
        }
    }

    func indexSet() -> ArchivedContent? {
        guard let count = int("NSRangeCount"), count >= 0 else { return nil }
        if count == 0 { return .indexSet([]) }
        if count == 1, let location = int("NSLocation"), let length = int("NSLength") {
            guard location >= 0, length >= 0, location <= Int.max - length else { return nil }
            return .indexSet([location..<location + length])
        }
        guard let packed = data("NSRangeData") else { return nil }
        let numbers = Self.varints(packed)
        // Compared without multiplying: `count` comes from the archive and `count * 2` can overflow.
        guard numbers.count % 2 == 0, numbers.count / 2 == count else { return nil }
        var ranges: [Range<Int>] = []
        for i in stride(from: 0, to: numbers.count, by: 2) {
            let location = numbers[i], length = numbers[i + 1]
            guard location <= Int.max - length else { return nil }
            ranges.append(location..<location + length)
        }
        return .indexSet(ranges)
    }

    func error() -> ArchivedContent? {
        guard let domain = string(at: "NSDomain"), let code = int("NSCode") else { return nil }
        return .error(domain: domain, code: code, userInfo: value("NSUserInfo") ?? .null)
    }

    func oldStyleArray() -> ArchivedContent? {
        guard let count = int("NS.count"), count >= 0, count <= object.fields.count else { return nil }
        var elements: [ArchivedValue] = []
        for i in 0..<count {
            guard let e = value("$\(i)") else { return nil }
            elements.append(e)
        }
        return .oldStyleArray(elements)
    }
}
