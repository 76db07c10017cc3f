import Foundation

/// A value given as text on a command line, typed as plutil's `-insert KEYPATH -TYPE VALUE`
/// types it.
public enum PropertyListValueArgument: String, Sendable, Hashable, CaseIterable {
    case bool, integer, float, string, date, data, xml, json, array, dictionary

    /// Whether the type takes a value: `array` and `dictionary` insert an empty one.
    public var takesValue: Bool { self != .array && self != .dictionary }

    /// The value `text` stands for.
    ///
    /// Strictly, anything that is not clearly of the type is refused: a bool is `true`, `false`,
    /// `yes`, `no`, `1` or `0` in any case; an integer is decimal and fits 64 bits, signed or
    /// unsigned; a float is a decimal or `inf`/`nan`; a date is an XML plist date
    /// (`2024-05-01T12:00:00Z`); data is base64; `xml` is a property list in any format, and
    /// `json` a JSON value without `null`.
    ///
    /// `lenient` reads as plutil does instead: a bool is YES for `yes` or `true` and NO for
    /// anything else, an integer or float is the number its text starts with (0 when none),
    /// and base64 skips characters that are not base64.
    ///
    /// - Throws: `PropertyListError` saying what the text should have been.
    public func value(from text: String, lenient: Bool = false, options: PropertyListReadOptions = .default) throws(PropertyListError) -> PropertyListValue {
        func refuse(_ expected: String) -> PropertyListError {
            PropertyListError(.invalidValue, "'\(text)' is not \(expected)")
        }
        switch self {
        case .string:
            return .string(text)
        case .array:
            return .array([])
        case .dictionary:
            return .dictionary(PropertyListDictionary())
        case .bool:
            let word = text.lowercased()
            if word == "yes" || word == "true" || (!lenient && word == "1") { return .bool(true) }
            // plutil reads anything else as NO.
            guard lenient || word == "no" || word == "false" || word == "0" else {
                throw refuse("a bool (true, false, yes, no, 1 or 0)")
            }
            return .bool(false)
        case .integer:
            if lenient { return .integer(Self.leadingInteger(text)) }
            if let v = Int64(text) { return .integer(PropertyListInteger(v)) }
            if let v = UInt64(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return .integer(PropertyListInteger(v)) }
            throw refuse("an integer that fits 64 bits")
        case .float:
            if lenient { return .real(Self.leadingDouble(text)) }
            guard let v = Double(text.trimmingCharacters(in: .whitespaces)) else { throw refuse("a number") }
            return .real(v)
        case .date:
            var utf8 = Array(text.utf8)
            guard let date = utf8.withUnsafeMutableBufferPointer({ XMLDateFormat.parse(UnsafeBufferPointer($0)) }),
                  PropertyListDateRange.contains(date.timeIntervalSinceReferenceDate) else {
                throw refuse("a date as XML property lists write them, such as 2024-05-01T12:00:00Z")
            }
            return .date(date)
        case .data:
            guard let data = Data(base64Encoded: text, options: lenient ? .ignoreUnknownCharacters : []) else {
                throw refuse("base64")
            }
            return .data(data)
        case .xml:
            do {
                return try PropertyListReader(options: options).read(Data(text.utf8)).value
            } catch {
                throw PropertyListError(error.code, "the value is not a property list: \(error.description)")
            }
        case .json:
            let value: PropertyListValue
            do {
                value = try JSONPropertyListReader(options: options).read(Data(text.utf8))
            } catch {
                throw PropertyListError(error.code, "the value is not JSON: \(error.description)")
            }
            if let path = Self.pathToNull(in: value) {
                throw PropertyListError(.unrepresentable, "JSON null has no property-list type", keyPath: path)
            }
            return value
        }
    }

    /// Where `value` holds a null, or nil.
    static func pathToNull(in value: PropertyListValue) -> [String]? {
        switch value {
        case .null: return []
        case .array(let a):
            for (i, e) in a.enumerated() {
                if let p = pathToNull(in: e) { return ["[\(i)]"] + p }
            }
        case .dictionary(let d):
            for (k, v) in d {
                if let p = pathToNull(in: v) { return [k.stringValue ?? "{\(k.typeName)}"] + p }
            }
        default: break
        }
        return nil
    }

    /// NSString's `integerValue`: optional spaces and sign, then digits up to the first other
    /// character; 0 when there are none, and clamped to 64 bits.
    static func leadingInteger(_ text: String) -> PropertyListInteger {
        var scalars = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var negative = false
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        var magnitude: UInt64 = 0
        var overflow = false
        for c in scalars {
            guard let digit = c.wholeNumberValue, c.isASCII else { break }
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(digit))
            if o1 || o2 { overflow = true; break }
            magnitude = s
        }
        if negative {
            return PropertyListInteger(overflow || magnitude > UInt64(Int64.max) + 1 ? Int64.min : Int64(truncatingIfNeeded: 0 &- magnitude))
        }
        return PropertyListInteger(overflow || magnitude > UInt64(Int64.max) ? Int64.max : Int64(magnitude))
    }

    /// NSString's `doubleValue`: the longest leading finite decimal number, or 0.
    static func leadingDouble(_ text: String) -> Double {
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" }.prefix(400)
        var best = 0.0
        var end = trimmed.startIndex
        while end < trimmed.endIndex {
            end = trimmed.index(after: end)
            if let v = Double(trimmed[..<end]), v.isFinite { best = v }
        }
        return best
    }
}
