import Foundation
import KeyedArchive
import PropertyList

/// Builds a keyed archive from a plain payload (JSON or a property list), with the class names
/// the caller chooses for its objects, so that a server can write blobs an app reads with
/// `NSKeyedUnarchiver`.
///
/// Without a class assignment, dictionaries become NSDictionary, arrays NSArray, strings
/// NSString, numbers NSNumber, dates NSDate, data NSData and null NSNull (wherever it stands:
/// Foundation's unarchiver drops a `$null` reference from an array and corrupts its heap on one
/// among a dictionary's values). An assignment names a class for the value at a path:
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
    /// A string that stands for null in the payload, besides a real null: `"$null"`, which
    /// `PropertyListEncoder` writes for nil because property lists have no null. Nil for JSON,
    /// whose strings are always strings.
    public var nullMarker: String?
    /// The deepest nesting of arrays, dictionaries and objects archived.
    public var maximumDepth: Int

    /// - Parameters:
    ///   - classes: class name by path.
    ///   - nullMarker: `nullMarker(for:)` of the payload's format.
    ///   - maximumDepth: deeper payloads are refused (`PayloadError.tooDeep`) with their path.
    public init(classes: [String: String] = [:], nullMarker: String? = nil, maximumDepth: Int = 512) {
        self.classes = classes
        self.nullMarker = nullMarker
        self.maximumDepth = maximumDepth
    }

    /// The string that stands for null in a payload read from `format`: `"$null"` in property
    /// lists (PropertyListEncoder's spelling of nil), none in JSON.
    public static func nullMarker(for format: PropertyListFormat) -> String? {
        format == .json ? nil : "$null"
    }

    /// Path patterns split into components (`items`, `[]`, `color`).
    var patterns: [(components: [String], className: String)] {
        classes.sorted { $0.key < $1.key }.map { (Self.components($0.key), $0.value) }
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

    /// The archive of `payload`: nulls become NSNull objects wherever they stand (array
    /// elements, dictionary keys and values, object fields, the root), as Foundation's archiver
    /// writes `NSNull()`; only a key the payload does not have is absent.
    ///
    /// - Throws: `PayloadError.invalidMapping` for a class name that is not one, a class
    ///   assignment that matches no value or does not fit its value; `.tooDeep` past
    ///   `maximumDepth`, naming the path.
    public func archive(_ payload: PropertyListValue) throws(PayloadError) -> KeyedArchive {
        for (path, name) in classes.sorted(by: { $0.key < $1.key }) {
            if let problem = ArchivedClassName.problem(name) {
                throw PayloadError(.invalidMapping, "--class \(path)=\(name): \(problem)")
            }
        }
        var state = State(patterns: patterns, nullMarker: nullMarker, maximumDepth: maximumDepth)
        let root = try state.value(payload)
        let unused = state.patterns.indices.filter { !state.used.contains($0) }.map { state.patterns[$0] }
        if let first = unused.first {
            throw PayloadError(.invalidMapping, "--class \(State.describe(first.components))=\(first.className) matches no value in the payload")
        }
        return state.builder.archive(root: root)
    }

    struct State {
        let patterns: [(components: [String], className: String)]
        let nullMarker: String?
        let maximumDepth: Int
        var builder = KeyedArchiveBuilder()
        var used: Set<Int> = []
        /// Where the value being archived is: keys and `[i]` indexes from the root.
        var path: [String] = []

        init(patterns: [(components: [String], className: String)], nullMarker: String?, maximumDepth: Int) {
            self.patterns = patterns
            self.nullMarker = nullMarker
            self.maximumDepth = maximumDepth
        }

        /// The class assigned to the current path (or to `path` plus `extra`), if any.
        mutating func className(adding extra: String? = nil) -> String? {
            let count = path.count + (extra == nil ? 0 : 1)
            for (i, p) in patterns.enumerated() where p.components.count == count {
                var matches = true
                for (n, pattern) in p.components.enumerated() {
                    let actual = n < path.count ? path[n] : extra ?? ""
                    if pattern != actual && !(pattern == "[]" && actual.hasPrefix("[")) {
                        matches = false
                        break
                    }
                }
                if matches {
                    used.insert(i)
                    return p.className
                }
            }
            return nil
        }

        /// `.a.b[2]`; a deep path shows its first component and its last ten around a count of the rest.
        static func describe(_ path: [String]) -> String {
            func text(_ c: String) -> String { c.hasPrefix("[") ? c : "." + (c.count <= 100 ? c : String(c.prefix(100)) + "…") }
            if path.isEmpty { return "." }
            guard path.count > 11 else { return path.map(text).joined() }
            return text(path[0]) + "…(\(path.count - 11) more)…" + path.suffix(10).map(text).joined()
        }

        var here: String { Self.describe(path) }

        func isNull(_ payload: PropertyListValue) -> Bool {
            if case .null = payload { return true }
            if let nullMarker, case .string(let s) = payload, s == nullMarker { return true }
            return false
        }

        /// Archives the value at `path + [step]`.
        mutating func value(_ payload: PropertyListValue, at step: String) throws(PayloadError) -> ArchivedValue {
            path.append(step)
            defer { path.removeLast() }
            return try value(payload)
        }

        /// Archives the value at `path`.
        mutating func value(_ payload: PropertyListValue) throws(PayloadError) -> ArchivedValue {
            let name = className()
            if name != nil || payload.isCollection {
                // The root collection is level 1, as the property-list readers count.
                guard path.count < maximumDepth else {
                    throw PayloadError(.tooDeep, "the payload nests deeper than \(maximumDepth) at \(here)")
                }
            }
            if let name { return try object(payload, className: name) }
            if isNull(payload) { return builder.null() }
            switch payload {
            case .null: return builder.null()
            case .string(let s): return builder.string(s)
            case .integer, .real, .bool: return builder.number(payload)
            case .date(let d): return builder.date(d)
            case .data(let d): return builder.data(d)
            case .array(let a), .set(let a):
                return builder.array(try elements(a))
            case .dictionary(let d):
                return try dictionary(d, mutable: false)
            case .uid, .invalidUTF16String:
                throw PayloadError(.invalidMapping, "\(payload.typeName) at \(here) has no archived form")
            }
        }

        mutating func elements(_ a: [PropertyListValue]) throws(PayloadError) -> [ArchivedValue] {
            var elements: [ArchivedValue] = []
            elements.reserveCapacity(a.count)
            for (i, e) in a.enumerated() { elements.append(try value(e, at: "[\(i)]")) }
            return elements
        }

        func number(_ v: PropertyListValue?) -> Double? {
            switch v {
            case .real(let r)?: r
            case .integer(let i)?: i.int64Value.map(Double.init)
            default: nil
            }
        }

        mutating func object(_ payload: PropertyListValue, className: String) throws(PayloadError) -> ArchivedValue {
            let where_ = here
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
            case "NSNull":
                guard isNull(payload) else { throw wrong("null") }
                return builder.null()
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
                let elements = try self.elements(a)
                let immutable = className.replacingOccurrences(of: "Mutable", with: "")
                let chain = className == immutable ? [className, "NSObject"] : [className, immutable, "NSObject"]
                return builder.object(className, chain: chain, fields: [ArchivedField(key: "NS.objects", value: .array(elements))])
            case "NSDictionary", "NSMutableDictionary":
                guard case .dictionary(let d) = payload else { throw wrong("an object") }
                return try dictionary(d, mutable: className == "NSMutableDictionary")
            default:
                guard case .dictionary(let d) = payload else { throw wrong("an object of its fields") }
                var fields: [ArchivedField] = []
                for (k, v) in d {
                    guard case .string(let key) = k else { throw PayloadError(.invalidMapping, "\(className) at \(where_) has a key that is not a string") }
                    if self.className(adding: key) == nil {
                        switch v {
                        case .integer, .real, .bool:
                            // encode(_: Int/Double/Bool, forKey:) stores the value in the object itself.
                            fields.append(ArchivedField(key: key, value: .inline(v)))
                            continue
                        default:
                            // Everything else is an object, null included: NSNull, as
                            // encode(NSNull(), forKey:) writes it. A nil optional whose
                            // encode(_:forKey:) was never called is a key the payload lacks.
                            break
                        }
                    }
                    fields.append(ArchivedField(key: key, value: try value(v, at: key)))
                }
                return builder.object(className, chain: [className, "NSObject"], fields: fields)
            }
        }

        /// An NSDictionary (or NSMutableDictionary) of the entries.
        mutating func dictionary(_ d: PropertyListDictionary, mutable: Bool) throws(PayloadError) -> ArchivedValue {
            var keys: [ArchivedValue] = []
            var values: [ArchivedValue] = []
            keys.reserveCapacity(d.count)
            values.reserveCapacity(d.count)
            for (k, v) in d {
                keys.append(try value(k, at: "{key}"))
                values.append(try value(v, at: k.stringValue ?? "{key}"))
            }
            return builder.dictionary(keys: keys, values: values, mutable: mutable)
        }
    }
}
