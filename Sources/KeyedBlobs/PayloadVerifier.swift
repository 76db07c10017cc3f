import Foundation
import PropertyList
import PropertyListXML

/// Checks that bytes about to be written decode back to the payload they were made from.
///
/// A migration overwrites the only copy of a value (the backup aside), so each new value is read
/// back with our own readers and compared with the payload tree before the row is touched.
/// JSON has no dates, data or distinction between 1 and 1.0, so the comparison follows the
/// writer's strategies: a date must come back as the number or string its strategy spells, data
/// as its base64 or byte array, a real as an equal number. Precision the chosen format cannot
/// hold by design (whole-second dates in XML and in ISO 8601) is accepted; any other difference
/// fails the row.
struct PayloadVerifier {
    enum Format {
        case json(JSONWriteOptions)
        case binary
        case xml
    }

    let format: Format
    let readOptions: PropertyListReadOptions

    /// Nil when `bytes` decode to `payload`; otherwise what differs, and where.
    func mismatch(_ bytes: Data, payload: PropertyListValue) -> String? {
        let decoded: PropertyListValue
        do {
            switch format {
            case .json: decoded = try JSONPropertyListReader(options: readOptions).read(bytes)
            case .binary: decoded = try BinaryPropertyListReader(options: readOptions).read(bytes)
            case .xml: decoded = try XMLPropertyListReader(options: readOptions).read(bytes)
            }
        } catch {
            return "the new value does not read back: \(error.description)"
        }
        switch format {
        case .json(let options): return Self.jsonMismatch(payload, decoded, options: options, path: "")
        case .binary: return payload == decoded ? nil : Self.plistMismatch(payload, decoded, wholeSecondDates: false, path: "")
        case .xml: return payload == decoded ? nil : Self.plistMismatch(payload, decoded, wholeSecondDates: true, path: "")
        }
    }

    static func at(_ path: String) -> String { path.isEmpty ? "the root" : path }

    static func numbersEqual(_ expected: PropertyListValue, _ decoded: PropertyListValue) -> Bool {
        switch (expected, decoded) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b
        case (.integer(let a), .real(let b)): return a.int64Value.map { Double($0) == b && Int64(exactly: b) == $0 } ?? false
        case (.real(let a), .integer(let b)): return b.int64Value.map { Double($0) == a && Int64(exactly: a) == $0 } ?? false
        default: return false
        }
    }

    static func number(_ v: PropertyListValue) -> Double? {
        switch v {
        case .integer(let i): return i.int64Value.map(Double.init)
        case .real(let r): return r
        default: return nil
        }
    }

    static func jsonMismatch(_ expected: PropertyListValue, _ decoded: PropertyListValue, options: JSONWriteOptions, path: String) -> String? {
        guard let found = jsonDifference(expected, decoded, options: options) else { return nil }
        return "\(found.what) at \(at(path + found.path.reversed().joined()))"
    }

    /// A difference, and where: the path's components (`.key`, `[i]`) innermost first, made
    /// only when there is a difference to report.
    struct Difference {
        var what: String
        var path: [String] = []
    }

    static func jsonDifference(_ expected: PropertyListValue, _ decoded: PropertyListValue, options: JSONWriteOptions) -> Difference? {
        func differ(_ what: String) -> Difference { Difference(what: what) }
        switch expected {
        case .string(let s):
            guard case .string(let t) = decoded, s == t || PropertyListValue.string(s) == .string(t) else { return differ("a string differs") }
            return nil
        case .invalidUTF16String:
            return expected == decoded ? nil : differ("a string with lone surrogates differs")
        case .integer:
            return numbersEqual(expected, decoded) ? nil : differ("an integer differs")
        case .real(let r):
            if r.isFinite { return numbersEqual(expected, decoded) ? nil : differ("a real differs") }
            guard case .convertToString(let positive, let negative, let nan) = options.nonConformingFloatEncodingStrategy,
                  case .string(let s) = decoded, s == (r.isNaN ? nan : (r > 0 ? positive : negative)) else {
                return differ("a non-finite real differs")
            }
            return nil
        case .bool(let b):
            return decoded == .bool(b) ? nil : differ("a bool differs")
        case .null:
            return decoded == .null ? nil : differ("a null differs")
        case .date(let date):
            switch options.dateEncodingStrategy {
            case .deferredToDate:
                return number(decoded) == date.timeIntervalSinceReferenceDate ? nil : differ("a date differs")
            case .secondsSince1970:
                return number(decoded) == date.timeIntervalSince1970 ? nil : differ("a date differs")
            case .millisecondsSince1970:
                return number(decoded) == date.timeIntervalSince1970 * 1000 ? nil : differ("a date differs")
            case .iso8601:
                guard case .string(let text) = decoded, let back = ISO8601DateFormatter().date(from: text),
                      abs(back.timeIntervalSince(date)) < 1 else { return differ("a date differs") }
                return nil
            }
        case .data(let bytes):
            switch options.dataEncodingStrategy {
            case .base64:
                guard case .string(let text) = decoded, Data(base64Encoded: text) == bytes else { return differ("data differ") }
                return nil
            case .deferredToData:
                guard case .array(let items) = decoded, items.count == bytes.count,
                      zip(items, bytes).allSatisfy({ $0.0 == .integer(PropertyListInteger(Int64($0.1))) }) else { return differ("data differ") }
                return nil
            }
        case .uid(let uid):
            guard case .dictionary(let d) = decoded, d.count == 1, d["CF$UID"] == .integer(PropertyListInteger(uid)) else {
                return differ("a UID differs")
            }
            return nil
        case .array(let items), .set(let items):
            guard case .array(let back) = decoded, back.count == items.count else { return differ("an array differs in length") }
            for (i, (a, b)) in zip(items, back).enumerated() {
                if var problem = jsonDifference(a, b, options: options) {
                    problem.path.append("[\(i)]")
                    return problem
                }
            }
            return nil
        case .dictionary(let dictionary):
            if dictionary.keys.allSatisfy({ $0.stringValue != nil }) {
                guard case .dictionary(let back) = decoded, back.count == dictionary.count else { return differ("an object differs in size") }
                for (key, value) in dictionary {
                    let name = key.stringValue ?? ""
                    guard let other = back[name] else { return differ("key \"\(name)\" is missing") }
                    if var problem = jsonDifference(value, other, options: options) {
                        problem.path.append(".\(name)")
                        return problem
                    }
                }
                return nil
            }
            if dictionary.keys.allSatisfy({ $0.integerValue != nil }) {
                guard case .dictionary(let back) = decoded, back.count == dictionary.count else { return differ("an object differs in size") }
                for (key, value) in dictionary {
                    let name = key.integerValue?.description ?? ""
                    guard let other = back[name] else { return differ("key \(name) is missing") }
                    if var problem = jsonDifference(value, other, options: options) {
                        problem.path.append(".\(name)")
                        return problem
                    }
                }
                return nil
            }
            // Written as a flat [key, value, …] array.
            var flat: [PropertyListValue] = []
            for (key, value) in dictionary { flat.append(key); flat.append(value) }
            return jsonDifference(.array(flat), decoded, options: options)
        }
    }

    /// The first difference between two plist trees; `wholeSecondDates` allows XML's rounding.
    static func plistMismatch(_ expected: PropertyListValue, _ decoded: PropertyListValue, wholeSecondDates: Bool, path: String) -> String? {
        func differ(_ what: String) -> String { "\(what) at \(at(path))" }
        switch (expected, decoded) {
        case (.date(let a), .date(let b)):
            if a == b || (wholeSecondDates && abs(a.timeIntervalSince(b)) < 1) { return nil }
            return differ("a date differs")
        case (.array(let a), .array(let b)), (.set(let a), .set(let b)), (.set(let a), .array(let b)):
            guard a.count == b.count else { return differ("an array differs in length") }
            for (i, (x, y)) in zip(a, b).enumerated() {
                if let problem = plistMismatch(x, y, wholeSecondDates: wholeSecondDates, path: "\(path)[\(i)]") { return problem }
            }
            return nil
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return differ("a dictionary differs in size") }
            for (key, value) in a {
                let name = key.stringValue ?? "\(key)"
                guard let other = b[key] else { return differ("key \"\(name)\" is missing") }
                if let problem = plistMismatch(value, other, wholeSecondDates: wholeSecondDates, path: "\(path).\(name)") { return problem }
            }
            return nil
        default:
            return expected == decoded ? nil : differ("a \(expected.typeName) differs")
        }
    }
}
