import Foundation

/// Writes a property list as a Swift or Objective-C literal, as `plutil -convert swift|objc` does.
///
/// The layout is plutil's: a `/// Generated from FILE` comment, a constant named after the
/// file, four-space indentation, dictionary keys in plutil's order and a comma after every
/// element. Where plutil's output would not compile or would change a value, the literal is
/// written so that it does compile and means exactly the property list:
/// - numbers are written in full (the shortest text that reads back the same double, not `%f`),
///   NaN and the infinities as `Double.nan` and `Double.infinity` (`NAN`, `INFINITY` in
///   Objective-C), and an unsigned 64-bit value with its type;
/// - strings escape every backslash, quote and control character;
/// - a collection whose elements differ in type, and an empty one, is annotated
///   (`as [Any]`, `as [String : Any]`) at any depth, not only at the top;
/// - Swift data is `Data([0x01, …])`, and a dictionary that repeats a key keeps its last entry.
///
/// Swift takes every value but sets, UIDs and the null marker; Objective-C literals hold only
/// strings, numbers, arrays and dictionaries. The Swift output needs `import Foundation` for
/// `Data` and `Date`, as plutil's does.
public struct PropertyListLiteralWriter: Sendable {
    public enum Language: String, Sendable, Hashable {
        case swift
        case objc
    }

    public var language: Language
    /// The file the literal is made from: named in the comment, and the constant is named
    /// after it (`Info.plist` gives `Info`). `-` is standard input.
    public var sourceName: String
    /// For Objective-C written to a file: the header the file imports (`Info.h`), or nil.
    public var importedHeader: String?

    public init(language: Language, sourceName: String, importedHeader: String? = nil) {
        self.language = language
        self.sourceName = sourceName
        self.importedHeader = importedHeader
    }

    /// The literal, as source text in UTF-8.
    ///
    /// - Throws: `PropertyListError` (`.unrepresentable`) naming the key path of a value the
    ///   language's literals cannot hold.
    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        let node = try LiteralNode(value, language: language, path: [])
        var out = ""
        switch language {
        case .swift:
            out += "/// Generated from \(Self.lastComponent(sourceName))\n"
            out += "let \(Self.variableName(forSource: sourceName))"
            if node.needsAnnotation { out += " : \(node.swiftType)" }
            out += " = "
            node.render(into: &out, depth: 0, language: .swift, annotated: false)
            out += "\n"
        case .objc:
            if let importedHeader { out += "#import \"\(importedHeader)\"\n\n" }
            out += try objcDeclaration(for: value, forHeader: false)
            node.render(into: &out, depth: 0, language: .objc, annotated: false)
            out += ";\n"
        }
        return Data(out.utf8)
    }

    /// The Objective-C header declaring the constant, as `plutil -convert objc -header` writes it.
    public func header(for value: PropertyListValue) throws(PropertyListError) -> Data {
        Data(("#import <Foundation/Foundation.h>\n\n" + (try objcDeclaration(for: value, forHeader: true)) + ";\n").utf8)
    }

    func objcDeclaration(for value: PropertyListValue, forHeader: Bool) throws(PropertyListError) -> String {
        let type: String
        switch value {
        case .bool, .integer, .real: type = "NSNumber"
        case .string: type = "NSString"
        case .array: type = "NSArray"
        case .dictionary: type = "NSDictionary"
        default:
            throw PropertyListError(.unrepresentable, "\(value.typeName) cannot be written in Objective-C literal syntax")
        }
        var out = "/// Generated from \(Self.lastComponent(sourceName))\n"
        out += "__attribute__((visibility(\"hidden\")))\n"
        if forHeader { out += "extern " }
        out += "\(type) * const \(Self.variableName(forSource: sourceName))"
        if !forHeader { out += " = " }
        return out
    }

    /// The constant's name: the file's name without its extension, with anything that cannot
    /// be in an identifier replaced by `_` (plutil turns `-` and spaces into `_`), and `_`
    /// before a leading digit.
    public static func variableName(forSource source: String) -> String {
        var stem = lastComponent(source)
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex {
            stem = String(stem[..<dot])
        }
        var name = String(stem.unicodeScalars.map { scalar -> Character in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" ? Character(scalar) : "_"
        })
        if name.isEmpty { name = "_" }
        if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = "_" + name }
        return name
    }

    static func lastComponent(_ path: String) -> String {
        path == "-" ? "-" : URL(fileURLWithPath: path).lastPathComponent
    }
}

/// One value of a literal, with the static type Swift gives it: the typed form the writer
/// renders from, so that type inference is decided before any text is written.
indirect enum LiteralNode {
    case scalar(text: String, type: String)
    case array([LiteralNode], elementType: String?)
    case dictionary([(key: String, value: LiteralNode)], valueType: String?)

    init(_ value: PropertyListValue, language: PropertyListLiteralWriter.Language, path: [String]) throws(PropertyListError) {
        func refuse(_ what: String) -> PropertyListError {
            let name = language == .swift ? "Swift" : "Objective-C"
            return PropertyListError(.unrepresentable, "\(what) cannot be written in \(name) literal syntax", keyPath: path)
        }
        let objc = language == .objc
        switch value {
        case .string(let s):
            self = .scalar(text: (objc ? "@" : "") + Self.quoted(s, objc: objc), type: "String")
        case .bool(let b):
            self = .scalar(text: objc ? (b ? "@YES" : "@NO") : (b ? "true" : "false"), type: "Bool")
        case .integer(let i):
            if let signed = i.int64Value {
                self = .scalar(text: (objc ? "@" : "") + String(signed), type: "Int")
            } else if let unsigned = i.uint64Value {
                self = .scalar(text: objc ? "@\(unsigned)ULL" : "\(unsigned) as UInt64", type: "UInt64")
            } else {
                throw refuse("the integer \(i), wider than 64 bits,")
            }
        case .real(let r):
            self = .scalar(text: Self.realText(r, objc: objc), type: "Double")
        case .date(let d) where !objc:
            self = .scalar(text: "Date(timeIntervalSinceReferenceDate: \(Self.realText(d.timeIntervalSinceReferenceDate, objc: false)))", type: "Date")
        case .data(let d) where !objc:
            self = .scalar(text: "Data([" + d.map { String(format: "0x%02X", $0) }.joined(separator: ", ") + "])", type: "Data")
        case .array(let elements):
            var nodes: [LiteralNode] = []
            nodes.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() {
                nodes.append(try LiteralNode(element, language: language, path: path + ["[\(i)]"]))
            }
            self = .array(nodes, elementType: Self.commonType(nodes.map(\.swiftType)))
        case .dictionary(let d):
            // Sorted as plutil sorts; a repeated key keeps its last entry, as CF reads it.
            var last: [String: Int] = [:]
            for (i, key) in d.keys.enumerated() {
                guard case .string(let k) = key else { throw refuse("a dictionary key of type \(key.typeName)") }
                last[k] = i
            }
            var entries: [(key: String, value: LiteralNode)] = []
            for key in last.keys.sorted(by: PropertyListKeyOrder.plutil) {
                guard let i = last[key] else { continue }
                entries.append((key, try LiteralNode(d.values[i], language: language, path: path + [key])))
            }
            self = .dictionary(entries, valueType: Self.commonType(entries.map(\.value.swiftType)))
        default:
            throw refuse(value.typeNameWithArticle)
        }
    }

    /// The type Swift infers for the literal as rendered (with its annotation, if it needs one).
    var swiftType: String {
        switch self {
        case .scalar(_, let type): type
        case .array(_, let element): "[\(element ?? "Any")]"
        case .dictionary(_, let value): "[String : \(value ?? "Any")]"
        }
    }

    /// Whether Swift cannot infer the type alone: an empty collection, or one whose elements
    /// have different types (Swift would refuse it, or turn integers into doubles).
    var needsAnnotation: Bool {
        switch self {
        case .scalar: false
        case .array(_, let element): element == nil
        case .dictionary(_, let value): value == nil
        }
    }

    static func commonType(_ types: [String]) -> String? {
        guard let first = types.first, types.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    func render(into out: inout String, depth: Int, language: PropertyListLiteralWriter.Language, annotated: Bool) {
        let objc = language == .objc
        switch self {
        case .scalar(let text, _):
            out += text
        case .array(let elements, _):
            if elements.isEmpty {
                out += objc ? "@[]" : "[]"
            } else {
                out += objc ? "@[\n" : "[\n"
                for element in elements {
                    out += Self.indentation(depth + 1)
                    element.render(into: &out, depth: depth + 1, language: language, annotated: true)
                    out += ",\n"
                }
                out += Self.indentation(depth) + "]"
            }
        case .dictionary(let entries, _):
            if entries.isEmpty {
                out += objc ? "@{}" : "[:]"
            } else {
                out += objc ? "@{\n" : "[\n"
                for (key, value) in entries {
                    out += Self.indentation(depth + 1) + (objc ? "@" : "") + Self.quoted(key, objc: objc) + " : "
                    value.render(into: &out, depth: depth + 1, language: language, annotated: true)
                    out += ",\n"
                }
                out += Self.indentation(depth) + (objc ? "}" : "]")
            }
        }
        if annotated, !objc, needsAnnotation { out += " as \(swiftType)" }
    }

    static func indentation(_ depth: Int) -> String {
        String(repeating: " ", count: 4 * depth)
    }

    /// A double in its shortest exact spelling, always with a fraction or an exponent so that
    /// it stays a floating-point literal.
    static func realText(_ r: Double, objc: Bool) -> String {
        if r.isNaN { return objc ? "@(NAN)" : "Double.nan" }
        if r.isInfinite {
            if objc { return r < 0 ? "@(-INFINITY)" : "@(INFINITY)" }
            return r < 0 ? "-Double.infinity" : "Double.infinity"
        }
        let text = "\(r)"
        return objc ? "@" + text : text
    }

    /// A string literal: backslash, quote and control characters escaped.
    static func quoted(_ s: String, objc: Bool) -> String {
        QuotedString.quoted(s) { scalar in
            guard scalar.value < 0x20 || scalar.value == 0x7F else { return nil }
            // Octal in C: a hex escape would swallow the digits after it.
            return objc ? "\\" + String(format: "%03o", scalar.value) : "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
}
