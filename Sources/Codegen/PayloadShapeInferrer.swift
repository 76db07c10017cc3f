import Foundation
import PropertyList

/// Infers the shape of a set of payload values: add every value of a column, then read `shape`.
///
/// The rules:
/// - a field present (and not null) in some values only is optional;
/// - integers widen to the smallest width holding all of them; integers and reals together
///   are reals; a real that is always the shortest spelling of a Float is a Float;
/// - an object whose keys are all data (UUIDs, bundle identifiers, numbers: `DataLikeKey`), or
///   that has more than `maximumRecordFields` distinct keys across the values, is a
///   `[String: T]` map of the values' joined shape;
/// - `{"red", "green", "blue", "alpha"}` (and `"colorSpace"`) of numbers is a color;
/// - strings that are all UUIDs are UUIDs, all absolute URLs (`scheme://…`) URLs, and under
///   the `iso8601` date strategy all ISO 8601 dates are dates;
/// - dates and data join with what their strategy writes them as: a date from an archive and a
///   number from a migrated row are one date field under a numeric strategy;
/// - values of different JSON kinds at one position (a string in one row, an object in another)
///   become a `oneOf`, one member per kind.
public struct PayloadShapeInferrer: Sendable {
    public var encoding: PayloadEncoding
    /// An object position with more distinct keys than this, across all values, is a map.
    public var maximumRecordFields: Int
    /// The deepest nesting of arrays and objects typed. A type nested deeper than any real
    /// payload is no use to anyone, and a hostile value of 100,000 levels would otherwise make
    /// names and type spellings that grow with the square of its depth.
    public var maximumDepth: Int
    /// How many values were added.
    public private(set) var valueCount = 0
    var evidence: ShapeEvidence = .unknown

    public init(encoding: PayloadEncoding = .json, maximumRecordFields: Int = 128, maximumDepth: Int = 64) {
        self.encoding = encoding
        self.maximumRecordFields = maximumRecordFields
        self.maximumDepth = maximumDepth
    }

    /// Adds one whole payload value.
    ///
    /// - Throws: `CodegenError` when the value nests deeper than `maximumDepth`; the value is
    ///   then not added.
    public mutating func add(_ value: PropertyListValue) throws(CodegenError) {
        var tooDeep = false
        let e = self.evidence(of: value, depth: 0, tooDeep: &tooDeep)
        guard !tooDeep else {
            throw CodegenError(.tooDeep, "the value nests deeper than \(maximumDepth) levels of arrays and objects, more than a generated type holds")
        }
        evidence = join(evidence, e)
        valueCount += 1
    }

    /// The shape of every value added so far.
    public var shape: PayloadShape { shape(of: evidence) }

    /// The shape of `values`.
    ///
    /// - Throws: `CodegenError` when a value nests deeper than the default `maximumDepth`.
    public static func shape(of values: some Sequence<PropertyListValue>, encoding: PayloadEncoding = .json) throws(CodegenError) -> PayloadShape {
        var inferrer = PayloadShapeInferrer(encoding: encoding)
        for value in values { try inferrer.add(value) }
        return inferrer.shape
    }

    // MARK: One value

    func evidence(of value: PropertyListValue, depth: Int, tooDeep: inout Bool) -> ShapeEvidence {
        if value.isCollection, depth >= maximumDepth {
            tooDeep = true
            return .unknown
        }
        switch value {
        case .null: return .null
        case .bool: return .bool
        case .integer(let i): return .integer(IntegerRange(i.int128Value))
        case .uid(let u): return .integer(IntegerRange(Int128(u)))
        case .real(let d): return .real(fitsFloat: Self.isShortestFloat(d))
        case .string(let s): return .string(readings(of: s))
        case .invalidUTF16String: return .string([])
        case .date: return .date
        case .data: return .data
        case .array(let elements), .set(let elements):
            var element = ShapeEvidence.unknown
            for e in elements {
                element = join(element, evidence(of: e, depth: depth + 1, tooDeep: &tooDeep))
                if tooDeep { return .unknown }
            }
            return .array(element)
        case .dictionary(let d): return evidence(of: d, depth: depth, tooDeep: &tooDeep)
        }
    }

    func evidence(of dictionary: PropertyListDictionary, depth: Int, tooDeep: inout Bool) -> ShapeEvidence {
        func joined() -> ShapeEvidence {
            var total = ShapeEvidence.unknown
            for value in dictionary.values {
                total = join(total, evidence(of: value, depth: depth + 1, tooDeep: &tooDeep))
                if tooDeep { return .unknown }
            }
            return total
        }
        var keys: [String] = []
        keys.reserveCapacity(dictionary.count)
        for key in dictionary.keys {
            guard case .string(let s) = key else {
                // Keys that are not strings: a dictionary keyed by data, whatever it holds.
                return .map(joined())
            }
            keys.append(s)
        }
        if encoding.format == .propertyList, keys == ["relative"], case .string? = dictionary.values.first {
            return .url
        }
        if let color = colorEvidence(dictionary, keys: keys) { return color }
        if !keys.isEmpty, keys.allSatisfy(DataLikeKey.isDataLike) {
            return .map(joined())
        }
        var record = RecordEvidence()
        for (key, value) in zip(keys, dictionary.values) {
            let e = evidence(of: value, depth: depth + 1, tooDeep: &tooDeep)
            if tooDeep { return .unknown }
            if let known = record.fields[key] {
                record.fields[key] = join(known, e)
            } else {
                record.keys.append(key)
                record.fields[key] = e
            }
        }
        if record.keys.count > maximumRecordFields { return asMap(record) }
        return .record(record)
    }

    static let colorKeys: Set<String> = ["red", "green", "blue", "alpha"]

    /// A color as the payload mapper writes UIColor and NSColor: the four components as
    /// numbers, and `colorSpace` as a string when it is not sRGB.
    func colorEvidence(_ dictionary: PropertyListDictionary, keys: [String]) -> ShapeEvidence? {
        guard keys.count == 4 || keys.count == 5, Set(keys).isSuperset(of: Self.colorKeys) else { return nil }
        var hasColorSpace = false
        for (key, value) in zip(keys, dictionary.values) {
            switch (key, value) {
            case ("colorSpace", .string): hasColorSpace = true
            case ("colorSpace", _): return nil
            case (_, .integer), (_, .real): continue
            default: return nil
            }
        }
        guard keys.count == 4 || hasColorSpace else { return nil }
        return .color(hasColorSpace: hasColorSpace)
    }

    /// What a string could also be read as, by this encoding's decoder.
    func readings(of s: String) -> StringReadings {
        var readings: StringReadings = []
        let utf8 = s.utf8
        if utf8.count == 36, UUID(uuidString: s) != nil { readings.insert(.uuid) }
        if Self.isAbsoluteURL(s) { readings.insert(.url) }
        if encoding.format == .json, encoding.dateStrategy == .iso8601, let first = utf8.first,
           (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), (try? Date.ISO8601FormatStyle().parse(s)) != nil {
            readings.insert(.iso8601Date)
        }
        if encoding.format == .json, encoding.dataStrategy == .base64, utf8.count % 4 == 0, Data(base64Encoded: s) != nil {
            readings.insert(.base64)
        }
        return readings
    }

    /// `scheme://…` with no spaces, which `URL(string:)` (and so JSONDecoder) reads.
    static func isAbsoluteURL(_ s: String) -> Bool {
        guard let separator = s.range(of: "://"), separator.lowerBound > s.startIndex else { return false }
        let scheme = s[..<separator.lowerBound]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) })
        else { return false }
        guard !s.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else { return false }
        guard let url = URL(string: s) else { return false }
        return url.scheme != nil
    }

    /// Whether `d` is what a Float prints as (so decoding it as a Float loses nothing a person
    /// wrote): 0.5, 0.176 (UIColor's float32 components, as the payload mapper spells them).
    static func isShortestFloat(_ d: Double) -> Bool {
        guard d.isFinite else { return true }
        let f = Float(d)
        guard f.isFinite else { return false }
        return Double(f.description) == d
    }

    // MARK: Joining

    /// The category a decoder sees `e` as.
    func category(_ e: ShapeEvidence) -> ShapeCategory {
        switch e {
        case .unknown, .null, .optional: .null
        case .bool: .bool
        case .integer, .real: .number
        case .string: .string
        case .date: encoding.dateCategory
        case .data: encoding.dataCategory
        case .url, .color, .map, .record: .object
        case .array: .array
        case .oneOf(let members): members.first.map(category) ?? .null
        }
    }

    /// `e` where values may also be missing or null.
    func optional(_ e: ShapeEvidence) -> ShapeEvidence {
        switch e {
        case .unknown, .null: .null
        case .optional: e
        default: .optional(e)
        }
    }

    /// The evidence of two sets of values together.
    func join(_ a: ShapeEvidence, _ b: ShapeEvidence) -> ShapeEvidence {
        switch (a, b) {
        case (.unknown, _): return b
        case (_, .unknown): return a
        case (.null, .null): return .null
        case (.null, let other), (let other, .null): return optional(other)
        case (.optional(let x), .optional(let y)): return optional(join(x, y))
        case (.optional(let x), let other), (let other, .optional(let x)): return optional(join(x, other))
        case (.oneOf(let members), let other), (let other, .oneOf(let members)):
            var result = members
            let others: [ShapeEvidence] = if case .oneOf(let more) = other { more } else { [other] }
            for o in others { insert(o, into: &result) }
            return result.count == 1 ? result[0] : .oneOf(result)
        default:
            guard category(a) == category(b) else {
                var result = [a]
                insert(b, into: &result)
                return .oneOf(result)
            }
            return merge(a, b)
        }
    }

    /// Adds `e` to the member of its category, or as a new member in category order.
    func insert(_ e: ShapeEvidence, into members: inout [ShapeEvidence]) {
        let c = category(e)
        if let i = members.firstIndex(where: { category($0) == c }) {
            members[i] = merge(members[i], e)
        } else {
            let at = members.firstIndex(where: { category($0) > c }) ?? members.endIndex
            members.insert(e, at: at)
        }
    }

    /// Two values of one category.
    func merge(_ a: ShapeEvidence, _ b: ShapeEvidence) -> ShapeEvidence {
        switch (a, b) {
        case (.bool, .bool): return .bool
        // Numbers (and dates written as numbers).
        case (.integer(let x), .integer(let y)): return .integer(x.union(y))
        case (.real(let x), .real(let y)): return .real(fitsFloat: x && y)
        case (.integer(let r), .real(let f)), (.real(let f), .integer(let r)): return .real(fitsFloat: f && r.fitsFloat)
        // Strings (and dates and data written as strings).
        case (.string(let x), .string(let y)): return .string(x.intersection(y))
        case (.date, .date): return .date
        case (.data, .data): return .data
        case (.date, .integer), (.date, .real), (.integer, .date), (.real, .date): return .date
        case (.date, .string(let r)), (.string(let r), .date): return r.contains(.iso8601Date) ? .date : .string([])
        case (.data, .string(let r)), (.string(let r), .data): return r.contains(.base64) ? .data : .string([])
        case (.date, .data), (.data, .date): return .string([])
        // Arrays (and data written as bytes).
        case (.array(let x), .array(let y)): return .array(join(x, y))
        case (.data, .array(let e)), (.array(let e), .data):
            switch e {
            case .unknown: return .data
            case .integer(let r) where r.isBytes: return .data
            default: return .array(join(.integer(IntegerRange(lower: 0, upper: 255)), e))
            }
        // Objects.
        case (.record(let x), .record(let y)): return join(x, y)
        case (.map(let x), .map(let y)): return .map(join(x, y))
        case (.map(let m), .record(let r)), (.record(let r), .map(let m)):
            return .map(join(m, valueEvidence(of: r)))
        case (.color(let x), .color(let y)): return .color(hasColorSpace: x || y)
        case (.url, .url): return .url
        case (.map(let m), let other), (let other, .map(let m)):
            return .map(join(m, valueEvidence(of: asRecord(other))))
        case (let x, let y):
            return join(asRecord(x), asRecord(y))
        }
    }

    /// Two records together: a key missing from either side is optional.
    func join(_ a: RecordEvidence, _ b: RecordEvidence) -> ShapeEvidence {
        if a.keys == b.keys {
            var out = a
            for key in a.keys { out.fields[key] = join(a.fields[key] ?? .unknown, b.fields[key] ?? .unknown) }
            return .record(out)
        }
        var out = RecordEvidence()
        out.keys = a.keys
        for key in a.keys {
            let x = a.fields[key] ?? .unknown
            out.fields[key] = if let y = b.fields[key] { join(x, y) } else { optional(x) }
        }
        for key in b.keys where a.fields[key] == nil {
            out.keys.append(key)
            out.fields[key] = optional(b.fields[key] ?? .unknown)
        }
        if out.keys.count > maximumRecordFields { return asMap(out) }
        return .record(out)
    }

    /// A color or URL seen beside other objects, as the record it is.
    func asRecord(_ e: ShapeEvidence) -> RecordEvidence {
        var record = RecordEvidence()
        switch e {
        case .record(let r): return r
        case .color(let hasColorSpace):
            for key in ["red", "green", "blue", "alpha"] {
                record.keys.append(key)
                record.fields[key] = .real(fitsFloat: false)
            }
            if hasColorSpace {
                record.keys.append("colorSpace")
                record.fields["colorSpace"] = .optional(.string([]))
            }
        case .url:
            record.keys = ["relative"]
            record.fields["relative"] = .string([])
        default:
            break
        }
        return record
    }

    /// Every field's values together, as the values of a map (absence is not null in a map).
    func valueEvidence(of record: RecordEvidence) -> ShapeEvidence {
        record.keys.reduce(ShapeEvidence.unknown) { total, key in
            let field = record.fields[key] ?? .unknown
            let value = if case .optional(let inner) = field { inner } else { field }
            return join(total, value)
        }
    }

    func asMap(_ record: RecordEvidence) -> ShapeEvidence { .map(valueEvidence(of: record)) }

    // MARK: Shape

    func shape(of e: ShapeEvidence) -> PayloadShape {
        switch e {
        case .unknown: return .unknown
        case .null: return .optional(.unknown)
        case .bool: return .bool
        case .integer(let r):
            guard let width = r.width else { return .real(.double) }
            return .integer(width)
        case .real(let fitsFloat): return .real(fitsFloat ? .float : .double)
        case .string(let r):
            if r.contains(.uuid) { return .uuid }
            if r.contains(.url) { return .url }
            if r.contains(.iso8601Date) { return .date }
            return .string
        case .date: return .date
        case .data: return .data
        case .url: return .url
        case .color(let hasColorSpace): return .color(hasColorSpace: hasColorSpace)
        case .array(let element): return .array(shape(of: element))
        case .map(let value): return .map(shape(of: value))
        case .record(let r):
            guard !r.keys.isEmpty else { return .map(.unknown) }
            return .record(r.keys.map { PayloadField($0, shape(of: r.fields[$0] ?? .unknown)) })
        case .optional(let inner):
            let s = shape(of: inner)
            return s.isOptional ? s : .optional(s)
        case .oneOf(let members): return .oneOf(members.map { shape(of: $0) })
        }
    }
}
