/// Turns a `SwiftFile` into source text: the one place that spells Swift syntax.
///
/// Four-space indentation, one blank line between declarations, `///` documentation, and a
/// final line break.
struct SwiftSourceRenderer {
    static let conformances = "Codable, Hashable, Sendable"

    func render(_ file: SwiftFile) -> String {
        var out = Output()
        for line in file.header { out.line(line.isEmpty ? "//" : "// " + line) }
        if !file.header.isEmpty { out.blank() }
        out.line("import Foundation")
        for declaration in file.declarations {
            out.blank()
            render(declaration, into: &out)
        }
        if let transformer = file.transformer {
            out.blank()
            render(transformer, into: &out)
        }
        return out.text
    }

    func render(_ declaration: SwiftDeclaration, into out: inout Output) {
        switch declaration {
        case .structure(let s): render(s, into: &out)
        case .union(let u): render(u, into: &out)
        case .alias(let a):
            documentation(a.documentation, into: &out)
            out.line("typealias \(a.name) = \(type(a.type))")
        }
    }

    func render(_ s: SwiftStruct, into out: inout Output) {
        documentation(s.documentation, into: &out)
        out.line("struct \(s.name): \(Self.conformances) {")
        out.indented { out in
            for p in s.properties {
                out.line("var \(p.name): \(type(p.type))" + (p.remark.map { " // \($0)" } ?? ""))
            }
            if s.needsCodingKeys {
                out.blank()
                out.line("enum CodingKeys: String, CodingKey {")
                out.indented { out in
                    for p in s.properties {
                        out.line(p.name == p.key ? "case \(p.name)" : "case \(p.name) = \(SwiftName.stringLiteral(p.key))")
                    }
                }
                out.line("}")
            }
            for n in s.nested {
                out.blank()
                render(n, into: &out)
            }
        }
        out.line("}")
    }

    func render(_ u: SwiftUnion, into out: inout Output) {
        documentation(u.documentation, into: &out)
        out.line("enum \(u.name): \(Self.conformances) {")
        out.indented { out in
            for c in u.cases { out.line("case \(c.name)(\(type(c.type)))") }
            out.blank()
            out.line("init(from decoder: any Decoder) throws {")
            out.indented { out in
                out.line("let container = try decoder.singleValueContainer()")
                for (i, c) in u.cases.enumerated() {
                    let keyword = i == 0 ? "if" : "} else if"
                    out.line("\(keyword) let value = try? container.decode(\(type(c.type)).self) {")
                    out.indented { $0.line("self = .\(c.name)(value)") }
                }
                out.line("} else {")
                out.indented { out in
                    let kinds = u.cases.map(\.name).joined(separator: ", ")
                    out.line("throw DecodingError.dataCorruptedError(in: container, debugDescription: \(SwiftName.stringLiteral("not one of: \(kinds)")))")
                }
                out.line("}")
            }
            out.line("}")
            out.blank()
            out.line("func encode(to encoder: any Encoder) throws {")
            out.indented { out in
                out.line("var container = encoder.singleValueContainer()")
                out.line("switch self {")
                for c in u.cases { out.line("case .\(c.name)(let value): try container.encode(value)") }
                out.line("}")
            }
            out.line("}")
            for n in u.nested {
                out.blank()
                render(n, into: &out)
            }
        }
        out.line("}")
    }

    func render(_ t: SwiftTransformer, into out: inout Output) {
        out.line("#if canImport(CoreData)")
        out.line("import CoreData")
        if let first = t.frameworks.first {
            out.line("#if canImport(\(first))")
            out.line("import \(first)")
            for other in t.frameworks.dropFirst() {
                out.line("#elseif canImport(\(other))")
                out.line("import \(other)")
            }
            out.line("#endif")
        }
        out.blank()
        documentation(t.documentation, into: &out)
        out.line("@objc(\(t.className))")
        out.line("final class \(t.className): NSSecureUnarchiveFromDataTransformer {")
        out.indented { out in
            out.line("/// The name to register it under, and to set as the attribute's Transformer in the model.")
            out.line("static let name = NSValueTransformerName(rawValue: \(SwiftName.stringLiteral(t.registeredName)))")
            out.blank()
            out.line("override class var allowedTopLevelClasses: [AnyClass] {")
            out.indented { out in
                var terms = ["super.allowedTopLevelClasses"]
                if !t.allowedClasses.isEmpty { terms.append("[" + t.allowedClasses.map { "\($0).self" }.joined(separator: ", ") + "]") }
                if !t.runtimeNamedClasses.isEmpty {
                    terms.append("[" + t.runtimeNamedClasses.map(SwiftName.stringLiteral).joined(separator: ", ") + "].compactMap(NSClassFromString)")
                }
                out.line(terms.joined(separator: " + "))
            }
            out.line("}")
            out.blank()
            out.line("/// Call once, before the persistent container loads its stores.")
            out.line("static func register() {")
            out.indented { $0.line("ValueTransformer.setValueTransformer(\(t.className)(), forName: name)") }
            out.line("}")
        }
        out.line("}")
        out.line("#endif")
    }

    func documentation(_ lines: [String], into out: inout Output) {
        for line in lines { out.line(line.isEmpty ? "///" : "/// " + line) }
    }

    func type(_ t: SwiftTypeReference) -> String {
        switch t {
        case .named(let name): name
        case .array(let element): "[\(type(element))]"
        case .dictionary(let value): "[String: \(type(value))]"
        case .optional(let wrapped): type(wrapped) + "?"
        }
    }

    /// Lines at an indentation level.
    struct Output {
        var text = ""
        var level = 0

        mutating func line(_ s: String) {
            text += String(repeating: "    ", count: level) + s + "\n"
        }

        /// A blank line, never two in a row nor right after an opening brace.
        mutating func blank() {
            guard !text.isEmpty, !text.hasSuffix("\n\n"), !text.hasSuffix("{\n") else { return }
            text += "\n"
        }

        mutating func indented(_ body: (inout Output) -> Void) {
            level += 1
            body(&self)
            level -= 1
        }
    }
}
