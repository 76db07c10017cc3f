import Foundation
import PropertyList

/// The classes an app's own value transformers allow, as the user states them: the
/// `allowedTopLevelClasses` of each `NSSecureUnarchiveFromDataTransformer` subclass the model
/// names. Archivist cannot run the app's code, so these lists are how it judges such columns.
public struct TransformerAllowLists: Sendable, Hashable {
    /// Transformer name (as the model's `valueTransformerName` spells it) → classes.
    public var classes: [String: [String]]

    public init(_ classes: [String: [String]] = [:]) {
        self.classes = classes
    }

    /// Lists from `--transformer NAME=CLASS[,CLASS…]` flags.
    ///
    /// - Throws: `ModelError.malformed` for a flag without `=`, a name or a class.
    public init(flags: [String]) throws(ModelError) {
        self.init()
        for flag in flags {
            guard let equals = flag.firstIndex(of: "=") else {
                throw ModelError(.malformed, "--transformer \(flag): write NAME=CLASS[,CLASS…]")
            }
            let name = flag[..<equals].trimmingCharacters(in: .whitespaces)
            let names = Self.split(String(flag[flag.index(after: equals)...]))
            guard !name.isEmpty, !names.isEmpty else {
                throw ModelError(.malformed, "--transformer \(flag): write NAME=CLASS[,CLASS…]")
            }
            classes[name, default: []] += names.filter { !(classes[name] ?? []).contains($0) }
        }
    }

    /// Lists from a JSON object of transformer name → classes (an array of names, or one
    /// string of names separated by commas), as `--transformers FILE` reads it.
    ///
    /// - Throws: `ModelError.malformed` naming the key that is not a list of names.
    public init(json data: Data) throws(ModelError) {
        self.init()
        let value: PropertyListValue
        do {
            value = try JSONPropertyListReader().read(data)
        } catch {
            throw ModelError(.malformed, "not JSON: \(error.description)")
        }
        guard let object = value.dictionaryValue else {
            throw ModelError(.malformed, "not a JSON object of transformer name → classes")
        }
        for (key, entry) in object {
            guard let name = key.stringValue, !name.isEmpty else { continue }
            var names: [String] = []
            if let text = entry.stringValue {
                names = Self.split(text)
            } else if let array = entry.arrayValue {
                for element in array {
                    guard let text = element.stringValue else {
                        throw ModelError(.malformed, "\"\(name)\": every class must be a string", location: "key \"\(name)\"")
                    }
                    names += Self.split(text)
                }
            } else {
                throw ModelError(.malformed, "\"\(name)\": give a list of class names", location: "key \"\(name)\"")
            }
            classes[name, default: []] += names
        }
    }

    static func split(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Adds the lists of `other`; its classes join any already given for the same name.
    public mutating func merge(_ other: TransformerAllowLists) {
        for (name, names) in other.classes {
            classes[name, default: []] += names.filter { !(classes[name] ?? []).contains($0) }
        }
    }

    /// The classes given for `name`, if any.
    public subscript(name: String) -> [String]? { classes[name] }

    public var isEmpty: Bool { classes.isEmpty }
}
