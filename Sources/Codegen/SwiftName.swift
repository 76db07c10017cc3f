import PropertyList

/// Turning payload keys into Swift names.
///
/// A key that is already a Swift identifier starting with a lower-case letter or `_` (and not a
/// keyword) is kept exactly, so the synthesized `CodingKeys` match it with no mapping. Any
/// other key becomes a lowerCamelCase property with an explicit coding key: `Home Address` →
/// `homeAddress`, `UIRed-Double` → `uiRedDouble`, `Domain` → `domain` (a capital would clash
/// with the nested types, which are capitalized), `$class` → `classValue` (a keyword gets
/// `Value`), `1st` → `_1st`.
enum SwiftName {
    /// Words Swift reserves in a declaration or expression (plus `Type` and `Self`), which a
    /// property cannot be named without backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "Type",
        "Protocol",
    ]

    /// Whether `text` can be a property name as it is: an identifier that is not a keyword.
    static func isPlainIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isIdentifierHead(first) else { return false }
        guard text.unicodeScalars.dropFirst().allSatisfy(isIdentifierBody) else { return false }
        return !keywords.contains(text)
    }

    /// ASCII letters, `_` and letters of any script may start an identifier (Swift allows a
    /// few more; these are never wrong).
    static func isIdentifierHead(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII { return s == "_" || ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
        return s.properties.isAlphabetic
    }

    static func isIdentifierBody(_ s: Unicode.Scalar) -> Bool {
        isIdentifierHead(s) || ("0"..."9").contains(s)
    }

    /// The words of a key: split at anything that is not a letter or digit, and at case humps
    /// (`UIRedDouble` → `UI`, `Red`, `Double`; `userID` → `user`, `ID`).
    static func words(_ key: String) -> [String] {
        var words: [String] = []
        for chunk in key.unicodeScalars.split(whereSeparator: { !isIdentifierBody($0) || $0 == "_" }) {
            let scalars = Array(chunk)
            var current = String.UnicodeScalarView()
            for (i, s) in scalars.enumerated() {
                let isUpper = s.properties.isUppercase
                if let last = current.last, isUpper {
                    let lastIsUpper = last.properties.isUppercase
                    let nextIsLower = i + 1 < scalars.count && scalars[i + 1].properties.isLowercase
                    // A hump starts at an upper-case letter after a lower-case one or a digit,
                    // or at the last capital of a run that a lower-case letter follows (UIRed).
                    if !lastIsUpper || nextIsLower {
                        words.append(String(current))
                        current = String.UnicodeScalarView()
                    }
                }
                current.append(s)
            }
            if !current.isEmpty { words.append(String(current)) }
        }
        return words
    }

    /// The property name for `key`.
    static func property(for key: String) -> String {
        if isPlainIdentifier(key), let head = key.unicodeScalars.first, head == "_" || !head.properties.isUppercase { return key }
        let parts = words(key)
        guard let first = parts.first else { return "emptyKey" }
        var name = first.lowercased() + parts.dropFirst().map(capitalized).joined()
        if let head = name.unicodeScalars.first, !isIdentifierHead(head) { name = "_" + name }
        if keywords.contains(name) { name += "Value" }
        return name
    }

    /// An UpperCamelCase type name made from `key` (`tint_color` → `TintColor`; `1st` →
    /// `Field1st`; `type` → `TypeValue`), or nil when the key has no letters or digits.
    static func typeName(for key: String) -> String? {
        let parts = words(key)
        guard !parts.isEmpty else { return nil }
        var name = parts.map(capitalized).joined()
        if let head = name.unicodeScalars.first, !isIdentifierHead(head) { name = "Field" + name }
        if keywords.contains(name) { name += "Value" }
        return name
    }

    /// `reactions` → `reaction`, `entries` → `entry`, `boxes` → `box`; nil when the word does
    /// not look plural.
    static func singular(_ name: String) -> String? {
        let lower = name.lowercased()
        if lower.hasSuffix("ies"), name.count > 3 { return String(name.dropLast(3)) + "y" }
        for suffix in ["sses", "shes", "ches", "xes", "zes"] where lower.hasSuffix(suffix) {
            return String(name.dropLast(2))
        }
        if lower.hasSuffix("s"), !lower.hasSuffix("ss"), !lower.hasSuffix("us"), !lower.hasSuffix("is"), name.count > 1 {
            return String(name.dropLast())
        }
        return nil
    }

    static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// `"…"` with the characters a Swift string literal cannot hold as they are escaped.
    static func stringLiteral(_ text: String) -> String {
        QuotedString.quoted(text) { s in
            if s == "\0" { return "\\0" }
            let category = s.properties.generalCategory
            guard s.value < 0x20 || s.value == 0x7F || (0x80...0x9F).contains(s.value) || category == .format
                || category == .lineSeparator || category == .paragraphSeparator else { return nil }
            return "\\u{\(String(s.value, radix: 16))}"
        }
    }
}
