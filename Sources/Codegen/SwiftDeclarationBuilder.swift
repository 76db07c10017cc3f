/// Translates a `PayloadShape` into Swift declarations, choosing every name.
///
/// Naming:
/// - the type of one whole value is `typeName`: a struct for records and colors, an enum for
///   values of several kinds, otherwise `typealias typeName = …` whose element type, when it is
///   a struct or enum, is `typeNameElement` (arrays) or `typeNameValue` (maps);
/// - every other struct or enum is nested, one level deep, in that top type, so two generated
///   files never clash in one app; it is named after its key (`owner` → `Owner`), singular for
///   array elements and map values (`reactions` → `Reaction`);
/// - a name already taken, or one that would hide a type the file uses (`Data`, `Date`,
///   `URL`…), takes its parent's name as a prefix, then a number;
/// - all colors share one nested `Color` struct.
struct SwiftDeclarationBuilder {
    let generator: SwiftCodeGenerator
    /// Type names taken, and those that must not be hidden.
    var used: Set<String>
    /// Declarations made while building the current top type, to nest in it.
    var nested: [SwiftDeclaration] = []
    /// The shared color struct's name, once made.
    var colorName: String?
    /// Whether some color in the shape has a color space.
    var colorHasSpace = false

    /// Names the generated code refers to (Swift's and Foundation's), which a nested type must
    /// not hide, and names Swift gives meaning to in a type's scope.
    static let reservedNames: Set<String> = [
        "Any", "AnyClass", "AnyObject", "Array", "Bool", "CodingKey", "CodingKeys", "Codable", "Data", "Date", "Decodable",
        "Decoder", "DecodingError", "Dictionary", "Double", "Encodable", "Encoder", "Error", "Float", "Hashable", "Int",
        "Int8", "Int16", "Int32", "Int64", "Never", "Optional", "Protocol", "Self", "Sendable", "Set", "String", "Type",
        "UInt64", "URL", "UUID", "Void", "JSONDecoder", "PropertyListDecoder", "Foundation", "ValueTransformer",
        "NSSecureUnarchiveFromDataTransformer", "NSValueTransformerName", "NSClassFromString",
    ]

    init(generator: SwiftCodeGenerator) {
        self.generator = generator
        used = Self.reservedNames
        used.insert(generator.typeName)
        if let transformer = generator.transformer {
            used.insert(transformer.className)
            for name in transformer.classes { used.insert(Self.swiftClassName(name)) }
        }
    }

    mutating func file(for shape: PayloadShape) -> SwiftFile {
        colorHasSpace = Self.containsColorSpace(shape)
        var file = SwiftFile()
        file.header = generator.header
        let name = generator.typeName
        let root = shape.unwrapped
        var documentation = generator.documentation
        if !documentation.isEmpty { documentation.append("") }
        documentation += decodingExample(optional: shape.isOptional, shape: root)
        switch root {
        case .record, .color, .oneOf:
            var top = declaration(named: name, for: root)
            top.setDocumentation(documentation)
            top.nest(nested)
            nested = []
            file.declarations = [top]
        default:
            var holders: [SwiftDeclaration] = []
            let type = aliasedType(root, name: name, holders: &holders)
            file.declarations = [.alias(SwiftTypeAlias(name: name, documentation: documentation, type: type))] + holders
        }
        if let transformer = generator.transformer {
            file.transformer = swiftTransformer(transformer)
        }
        return file
    }

    /// The type a `typealias` names; the first struct or enum met on the way is declared at
    /// the top level (`NameElement`, `NameValue`), holding every type nested below it.
    mutating func aliasedType(_ shape: PayloadShape, name: String, suffix: String? = nil,
                              holders: inout [SwiftDeclaration]) -> SwiftTypeReference {
        switch shape {
        case .array(let element):
            return .array(aliasedType(element, name: name, suffix: suffix ?? "Element", holders: &holders))
        case .map(let value):
            return .dictionary(aliasedType(value, name: name, suffix: suffix ?? "Value", holders: &holders))
        case .optional(let inner):
            return .optional(aliasedType(inner, name: name, suffix: suffix, holders: &holders))
        case .record, .color, .oneOf:
            let holderName = claim(name + (suffix ?? "Value"), parent: name)
            var holder = declaration(named: holderName, for: shape)
            holder.nest(nested)
            nested = []
            holders.append(holder)
            return .named(holderName)
        default:
            return reference(shape, hint: name + (suffix ?? ""), parent: name)
        }
    }

    // MARK: Declarations

    /// The struct or enum named `name` for a record, color or several kinds of value.
    mutating func declaration(named name: String, for shape: PayloadShape) -> SwiftDeclaration {
        switch shape {
        case .record(let fields):
            return .structure(record(named: name, fields: fields))
        case .color:
            return .structure(color(named: name))
        case .oneOf(let members):
            return .union(union(named: name, members: members))
        default:
            return .alias(SwiftTypeAlias(name: name, type: reference(shape, hint: name, parent: name)))
        }
    }

    mutating func record(named name: String, fields: [PayloadField]) -> SwiftStruct {
        var out = SwiftStruct(name: name)
        var propertyNames: Set<String> = []
        for field in fields {
            var property = SwiftName.property(for: field.key)
            if propertyNames.contains(property) {
                var n = 2
                while propertyNames.contains("\(property)\(n)") { n += 1 }
                property = "\(property)\(n)"
            }
            propertyNames.insert(property)
            let hint = SwiftName.typeName(for: field.key) ?? "Field"
            let type = reference(field.shape, hint: hint, parent: name)
            out.properties.append(SwiftProperty(name: property, key: field.key, type: type, remark: Self.remark(for: field.shape)))
        }
        return out
    }

    func color(named name: String) -> SwiftStruct {
        var out = SwiftStruct(name: name)
        out.documentation = ["A color's components, as UIColor and NSColor give them (0 to 1, sRGB unless colorSpace names another space)."]
        for key in ["red", "green", "blue", "alpha"] {
            out.properties.append(SwiftProperty(name: key, key: key, type: .named("Double")))
        }
        if colorHasSpace {
            out.properties.append(SwiftProperty(name: "colorSpace", key: "colorSpace", type: .optional(.named("String")),
                                                remark: "absent for sRGB; displayP3, genericGray…"))
        }
        return out
    }

    mutating func union(named name: String, members: [PayloadShape]) -> SwiftUnion {
        var out = SwiftUnion(name: name)
        out.documentation = ["One of the kinds of value this position has held, tried in this order."]
        var caseNames: Set<String> = []
        for member in members {
            var caseName = Self.caseName(for: member)
            if caseNames.contains(caseName) {
                var n = 2
                while caseNames.contains("\(caseName)\(n)") { n += 1 }
                caseName = "\(caseName)\(n)"
            }
            caseNames.insert(caseName)
            // An array's elements and a map's values are named after the enum (`NameElement`).
            let hint = switch member {
            case .array, .map: name
            default: name + SwiftName.capitalized(caseName)
            }
            out.cases.append(.init(name: caseName, type: reference(member, hint: hint, parent: name)))
        }
        return out
    }

    // MARK: References

    /// The type of a value of `shape`, declaring the struct or enum it needs (named after
    /// `hint`) as a nested type.
    mutating func reference(_ shape: PayloadShape, hint: String, parent: String) -> SwiftTypeReference {
        switch shape {
        case .unknown: return .named("String")
        case .bool: return .named("Bool")
        case .integer(let width):
            switch generator.numberTypes {
            case .natural: return .named(width == .uint64 ? "UInt64" : "Int")
            case .smallest: return .named(width.swiftName)
            }
        case .real(let width):
            return .named(generator.numberTypes == .smallest ? width.swiftName : "Double")
        case .string: return .named("String")
        case .date: return .named("Date")
        case .data: return .named("Data")
        case .url: return .named("URL")
        case .uuid: return .named("UUID")
        case .color:
            if let colorName { return .named(colorName) }
            let name = claim("Color", parent: generator.typeName)
            colorName = name
            nested.append(.structure(color(named: name)))
            return .named(name)
        case .array(let element):
            return .array(reference(element, hint: SwiftName.singular(hint) ?? hint + "Element", parent: parent))
        case .map(let value):
            return .dictionary(reference(value, hint: SwiftName.singular(hint) ?? hint + "Value", parent: parent))
        case .optional(let inner):
            let wrapped = reference(inner, hint: hint, parent: parent)
            if case .optional = wrapped { return wrapped }
            return .optional(wrapped)
        case .record, .oneOf:
            let name = claim(hint, parent: parent)
            // Reserve the slot first so this type comes before the types it nests.
            let slot = nested.count
            nested.append(.alias(SwiftTypeAlias(name: name, type: .named("Never"))))
            let made = declaration(named: name, for: shape)
            nested[slot] = made
            return .named(name)
        }
    }

    /// A name no other type has, that hides nothing the file uses: `hint`, else `parent` +
    /// `hint`, else with a number.
    mutating func claim(_ hint: String, parent: String) -> String {
        let base = SwiftName.isPlainIdentifier(hint) ? hint : SwiftName.typeName(for: hint) ?? "Field"
        for candidate in [base, parent + base] where !used.contains(candidate) {
            used.insert(candidate)
            return candidate
        }
        var n = 2
        while used.contains("\(base)\(n)") { n += 1 }
        used.insert("\(base)\(n)")
        return "\(base)\(n)"
    }

    // MARK: Details

    static func caseName(for shape: PayloadShape) -> String {
        switch shape {
        case .unknown: "unknown"
        case .bool: "bool"
        case .integer: "integer"
        case .real: "number"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .url: "url"
        case .uuid: "uuid"
        case .color: "color"
        case .array: "array"
        case .map: "dictionary"
        case .record: "object"
        case .optional(let inner): caseName(for: inner)
        case .oneOf: "value"
        }
    }

    /// A note for a property whose type had to be guessed.
    static func remark(for shape: PayloadShape) -> String? {
        switch shape.unwrapped {
        case .unknown: "only ever null: String is a guess"
        case .array(.unknown): "always empty: String is a guess"
        case .map(.unknown): "always empty: String is a guess"
        default: nil
        }
    }

    static func containsColorSpace(_ shape: PayloadShape) -> Bool {
        switch shape {
        case .color(let hasColorSpace): hasColorSpace
        case .array(let e), .map(let e), .optional(let e): containsColorSpace(e)
        case .record(let fields): fields.contains { containsColorSpace($0.shape) }
        case .oneOf(let members): members.contains(where: containsColorSpace)
        default: false
        }
    }

    /// How to decode one value, as documentation lines.
    func decodingExample(optional: Bool, shape: PayloadShape) -> [String] {
        var lines = ["Decode one stored value (`data`) with:", ""]
        let type = optional ? "\(generator.typeName)?" : generator.typeName
        switch generator.encoding.format {
        case .propertyList:
            lines.append("    let value = try PropertyListDecoder().decode(\(type).self, from: data)")
        case .json:
            var settings: [String] = []
            if Self.contains(shape, where: { $0 == .date }) {
                switch generator.encoding.dateStrategy {
                case .deferredToDate: break
                case .secondsSince1970: settings.append("decoder.dateDecodingStrategy = .secondsSince1970")
                case .millisecondsSince1970: settings.append("decoder.dateDecodingStrategy = .millisecondsSince1970")
                case .iso8601: settings.append("decoder.dateDecodingStrategy = .iso8601")
                }
            }
            if Self.contains(shape, where: { $0 == .data }), generator.encoding.dataStrategy == .deferredToData {
                settings.append("decoder.dataDecodingStrategy = .deferredToData")
            }
            if settings.isEmpty {
                lines.append("    let value = try JSONDecoder().decode(\(type).self, from: data)")
            } else {
                lines.append("    let decoder = JSONDecoder()")
                lines += settings.map { "    " + $0 }
                lines.append("    let value = try decoder.decode(\(type).self, from: data)")
            }
        }
        if optional { lines += ["", "Some values are null."] }
        return lines
    }

    static func contains(_ shape: PayloadShape, where match: (PayloadShape) -> Bool) -> Bool {
        if match(shape) { return true }
        switch shape {
        case .array(let e), .map(let e), .optional(let e): return contains(e, where: match)
        case .record(let fields): return fields.contains { contains($0.shape, where: match) }
        case .oneOf(let members): return members.contains { contains($0, where: match) }
        default: return false
        }
    }

    // MARK: Transformer

    func swiftTransformer(_ t: SwiftCodeGenerator.Transformer) -> SwiftTransformer {
        var frameworks: [String] = []
        if t.classes.contains(where: { Self.uiFrameworkClass(Self.swiftClassName($0)) }) { frameworks = ["UIKit", "AppKit"] }
        var seen: Set<String> = []
        let classes = t.classes.map(Self.swiftClassName).filter { seen.insert($0).inserted }
        let plain = classes.filter { SwiftName.isPlainIdentifier($0) && !$0.hasPrefix("_Tt") }
        return SwiftTransformer(
            className: t.className, registeredName: t.registeredName, allowedClasses: plain,
            runtimeNamedClasses: classes.filter { !plain.contains($0) }, frameworks: frameworks,
            documentation: [
                "Reads the old keyed archives with secure unarchiving while the app moves to `\(generator.typeName)`:",
                classes.isEmpty ? "the secure defaults accept every class they hold."
                    : "it allows the secure defaults and the classes those archives hold beyond them.",
            ] + (t.documentation.isEmpty ? [] : [""] + t.documentation))
    }

    /// `UIColor`; a Swift class by its unqualified name (`Eventail.SerializableColor` is
    /// `SerializableColor` in the app's module).
    static func swiftClassName(_ name: String) -> String {
        guard !name.hasPrefix("_Tt") else { return name }
        return name.split(separator: ".").last.map(String.init) ?? name
    }

    static let appKitClasses: Set<String> = ["NSColor", "NSFont", "NSImage", "NSColorSpace", "NSParagraphStyle", "NSShadow", "NSTextAttachment"]

    /// A class from UIKit or AppKit rather than Foundation or the app.
    static func uiFrameworkClass(_ name: String) -> Bool {
        name.hasPrefix("UI") || appKitClasses.contains(name)
    }
}

extension SwiftDeclaration {
    mutating func setDocumentation(_ lines: [String]) {
        switch self {
        case .structure(var s):
            s.documentation = lines + (s.documentation.isEmpty || lines.isEmpty ? s.documentation : [""] + s.documentation)
            self = .structure(s)
        case .union(var u):
            u.documentation = lines + (u.documentation.isEmpty || lines.isEmpty ? u.documentation : [""] + u.documentation)
            self = .union(u)
        case .alias(var a):
            a.documentation = lines
            self = .alias(a)
        }
    }

    mutating func nest(_ declarations: [SwiftDeclaration]) {
        guard !declarations.isEmpty else { return }
        switch self {
        case .structure(var s):
            s.nested += declarations
            self = .structure(s)
        case .union(var u):
            u.nested += declarations
            self = .union(u)
        case .alias:
            break
        }
    }
}
