/// Class names as archives write them, and how they compare.
///
/// An archive names a class the way the runtime that wrote it did: `NSArray` or `MyColor` for
/// Objective-C and `@objc(Name)` classes, `Module.Class` for a Swift class (what
/// `NSStringFromClass` gives), or Swift's mangled form (`_TtC6OldApp5Color`), which Apple's
/// runtime uses for nested and private classes and some archives hold for all of them.
public enum ArchivedClassName {
    /// The longest name accepted as a new class name.
    public static let maximumLength = 1_024

    /// Whether `a` and `b` name the same class: as written, or once Swift's mangling is undone
    /// on either side (`OldApp.Color` is `_TtC6OldApp5Color`).
    public static func matches(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        return readable(a) == readable(b)
    }

    /// `Module.Class` for a mangled Swift name, the name itself otherwise.
    public static func readable(_ name: String) -> String {
        SwiftClassName.demangle(name) ?? name
    }

    /// How Swift's runtime writes a class named `Module.Class` (or `Module.Outer.Inner`) into an
    /// archive on Apple platforms: a top-level class by its dotted name, a nested one mangled
    /// (`_TtCC6NewApp5Outer5Inner`). Any other name is written exactly as given.
    public static func asSwiftWritesIt(_ name: String) -> String {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count > 2, let mangled = SwiftClassName.mangle(name) else { return name }
        return mangled
    }

    /// Why `name` cannot name a class, or nil when it can.
    ///
    /// A class name is an identifier (`MyColor`, `_Private`), identifiers joined by dots
    /// (`NewApp.Color`, `NewApp.Outer.Inner`), or a mangled Swift class name that demangles.
    /// Identifiers start with a letter or `_` and go on with letters, digits and `_`.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "an empty class name" }
        if name.utf8.count > maximumLength { return "a class name longer than \(maximumLength) bytes" }
        if name.hasPrefix("_Tt") {
            return SwiftClassName.demangle(name) == nil ? "\"\(name)\" is not a mangled Swift class name that can be read" : nil
        }
        for part in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard let first = part.first else {
                return "\"\(name)\" has an empty part between dots"
            }
            guard first == "_" || first.isLetter else {
                return "\"\(name)\" has a part that starts with \(describe(first)), not a letter or _"
            }
            if let bad = part.first(where: { !($0 == "_" || $0.isLetter || $0.isNumber) }) {
                return "\"\(name)\" holds \(describe(bad)), which no class name has"
            }
        }
        return nil
    }

    static func describe(_ c: Character) -> String {
        if c == " " { return "a space" }
        if let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1, scalar.value < 0x20 || scalar.value == 0x7F {
            return "the control character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
        return "'\(c)'"
    }
}
