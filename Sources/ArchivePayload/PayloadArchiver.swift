import Foundation
import KeyedArchive
import PropertyList

/// Builds a keyed archive from a plain payload (JSON or a property list), with the class names
/// the caller chooses for its objects, so that a server can write blobs an app reads with
/// `NSKeyedUnarchiver`.
///
/// Without a class assignment, dictionaries become NSDictionary, arrays NSArray, strings
/// NSString, numbers NSNumber, dates NSDate and data NSData. An assignment names a class for
/// the value at a path:
/// - `UIColor` or `NSColor` on `{"red", "green", "blue", "alpha"}` writes the color the way
///   UIKit and AppKit archive it;
/// - `NSURL` and `NSUUID` take a string, `NSDate` a date or seconds since 2001, `NSData` data or
///   a base64 string; `NSMutableArray`, `NSSet`, `NSOrderedSet`, `NSMutableDictionary` take
///   what their immutable forms take;
/// - any other class on a dictionary writes an object of that class whose fields are the
///   dictionary's entries, numbers and bools inline and everything else as objects, as
///   `encode(_:forKey:)` writes them.
///
/// Paths: `.` is the root, `.settings.tint` a key path, `.items[]` every element of an array and
/// `.items[2]` one of them.
public struct PayloadArchiver: Sendable {
    /// Class name by path, as given (`.`, `.items[].color`).
    public var classes: [String: String]

    public init(classes: [String: String] = [:]) {
        self.classes = classes
    }

    /// Path patterns split into components (`items`, `[]`, `color`).
    var patterns: [(components: [String], className: String)] {
        classes.map { (Self.components($0.key), $0.value) }
    }

    static func components(_ path: String) -> [String] {
        var out: [String] = []
        var current = ""
        for ch in path {
            switch ch {
            case ".":
                if !current.isEmpty { out.append(current) }
                current = ""
            case "[":
                if !current.isEmpty { out.append(current) }
                current = "["
            case "]":
                out.append(current + "]")
                current = ""
            default:
                current.append(ch)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    public func archive(_ payload: PropertyListValue) throws(PayloadError) -> KeyedArchive {
        var state = State(patterns: patterns)
        let root = try state.value(payload, path: [])
        let unused = state.patterns.indices.filter { !state.used.contains($0) }.map { state.patterns[$0] }
        if let first = unused.first {
            let path = "." + first.components.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
            throw PayloadError(.invalidMapping, "--class \(path)=\(first.className) matches no value in the payload")
        }
        return state.builder.archive(root: root)
    }

    struct State {
        let patterns: [(components: [String], className: String)]
        var builder = KeyedArchiveBuilder()
        var used: Set<Int> = []

        init(patterns: [(components: [String], className: String)]) {
            self.patterns = patterns
        }

        mutating func className(at path: [String]) -> String? {
            for (i, p) in patterns.enumerated() where p.components.count == path.count {
                let matches = zip(p.components, path).allSatisfy { pattern, actual in
                    pattern == actual || (pattern == "[]" && actual.hasPrefix("["))
                }
                if matches {
                    used.insert(i)
                    return p.className
                }
            }
            return nil
        }

        static func describe(_ path: [String]) -> String {
            path.isEmpty ? "." : path.reduce("") { $0 + ($1.hasPrefix("[") ? $1 : "." + $1) }
        }

        mutating func value(_ payload: PropertyListValue, path: [String]) throws(PayloadError) -> ArchivedValue {
            if let name = className(at: path) { return try object(payload, className: name, path: path) }
            switch payload {
            case .null: return .null
            case .string(let s): return builder.string(s)
            case .integer, .real, .bool: return builder.number(payload)
            case .date(let d): return builder.date(d)
            case .data(let d): return builder.data(d)
            case .array(let a), .set(let a):
                var elements: [ArchivedValue] = []
                for (i, e) in a.enumerated() { elements.append(try value(e, path: path + ["[\(i)]"])) }
                return builder.array(elements)
            case .dictionary(let d):
                return try dictionary(d, path: path, mutable: false)
            case .uid, .invalidUTF16String:
                throw PayloadError(.invalidMapping, "\(payload.typeName) at \(Self.describe(path)) has no archived form")
            }
        }

        func number(_ v: PropertyListValue?) -> Double? {
            switch v {
            case .real(let r)?: r
            case .integer(let i)?: i.int64Value.map(Double.init)
            default: nil
            }
        }

        mutating func object(_ payload: PropertyListValue, className: String, path: [String]) throws(PayloadError) -> ArchivedValue {
            let where_ = Self.describe(path)
            func wrong(_ needs: String) -> PayloadError {
                PayloadError(.invalidMapping, "\(className) at \(where_) needs \(needs), not \(payload.typeName == "array" || payload.typeName == "integer" ? "an" : "a") \(payload.typeName)")
            }
            switch className {
            case "UIColor", "NSColor":
                guard let d = payload.dictionaryValue, let r = number(d["red"]), let g = number(d["green"]), let b = number(d["blue"]) else {
                    throw wrong("an object with red, green, blue and alpha")
                }
                let a = number(d["alpha"]) ?? 1
                if className == "UIColor" { return builder.uiColor(red: r, green: g, blue: b, alpha: a) }
                var rgb = Data(String(format: "%g %g %g %g", r, g, b, a).utf8)
                rgb.append(0)
                return builder.object("NSColor", fields: [
                    ArchivedField(key: "NSColorSpace", value: .inline(.integer(PropertyListInteger(2)))),
                    ArchivedField(key: "NSRGB", value: .inline(.data(rgb))),
                ])
            case "NSURL":
                guard case .string(let s) = payload else { throw wrong("a string") }
                return builder.url(s)
            case "NSUUID":
                guard case .string(let s) = payload, let u = UUID(uuidString: s) else { throw wrong("a UUID string") }
                return builder.uuid(u)
            case "NSDate":
                if case .date(let d) = payload { return builder.date(d) }
                guard let seconds = number(payload) else { throw wrong("a date or seconds since 2001") }
                return builder.date(Date(timeIntervalSinceReferenceDate: seconds))
            case "NSData":
                if case .data(let d) = payload { return builder.data(d) }
                guard case .string(let s) = payload, let d = Data(base64Encoded: s) else { throw wrong("data or a base64 string") }
                return builder.data(d)
            case "NSString":
                guard case .string(let s) = payload else { throw wrong("a string") }
                return builder.string(s)
            case "NSNumber":
                guard case .integer = payload else {
                    if case .real = payload { return builder.number(payload) }
                    if case .bool = payload { return builder.number(payload) }
                    throw wrong("a number")
                }
                return builder.number(payload)
            case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
                guard let a = payload.arrayValue else { throw wrong("an array") }
                var elements: [ArchivedValue] = []
                for (i, e) in a.enumerated() { elements.append(try value(e, path: path + ["[\(i)]"])) }
                let immutable = className.replacingOccurrences(of: "Mutable", with: "")
                let chain = className == immutable ? [className, "NSObject"] : [className, immutable, "NSObject"]
                return builder.object(className, chain: chain, fields: [ArchivedField(key: "NS.objects", value: .array(elements))])
            case "NSDictionary", "NSMutableDictionary":
                guard case .dictionary(let d) = payload else { throw wrong("an object") }
                return try dictionary(d, path: path, mutable: className == "NSMutableDictionary")
            default:
                guard case .dictionary(let d) = payload else { throw wrong("an object of its fields") }
                var fields: [ArchivedField] = []
                for (k, v) in d {
                    guard case .string(let key) = k else { throw PayloadError(.invalidMapping, "\(className) at \(where_) has a key that is not a string") }
                    let fieldPath = path + [key]
                    if self.className(at: fieldPath) == nil {
                        switch v {
                        case .integer, .real, .bool:
                            // encode(_: Int/Double/Bool, forKey:) stores the value in the object itself.
                            fields.append(ArchivedField(key: key, value: .inline(v)))
                            continue
                        case .null:
                            continue // a nil optional: encode(_:forKey:) was never called
                        default: break
                        }
                    }
                    fields.append(ArchivedField(key: key, value: try value(v, path: fieldPath)))
                }
                return builder.object(className, chain: [className, "NSObject"], fields: fields)
            }
        }

        /// An NSDictionary (or NSMutableDictionary) of the entries.
        mutating func dictionary(_ d: PropertyListDictionary, path: [String], mutable: Bool) throws(PayloadError) -> ArchivedValue {
            var keys: [ArchivedValue] = []
            var values: [ArchivedValue] = []
            for (k, v) in d {
                keys.append(try value(k, path: path + ["{key}"]))
                values.append(try value(v, path: path + [k.stringValue ?? "{key}"]))
            }
            return builder.dictionary(keys: keys, values: values, mutable: mutable)
        }
    }
}
