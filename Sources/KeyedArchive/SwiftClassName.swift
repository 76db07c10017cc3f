/// Demangles the class names Swift writes into archives for `@objc` classes without an
/// explicit `@objc(Name)`: `_TtC8Eventail17SerializableColor` is `Eventail.SerializableColor`,
/// and `_TtCC4Main5Outer5Inner` is `Main.Outer.Inner`.
///
/// Only the simple forms a runtime class name takes are handled: a module and one or more
/// nested class names, each a length-prefixed identifier, with the standard `Ss` (Swift) module
/// abbreviation. Anything else returns nil and is shown as written.
public enum SwiftClassName {
    public static func demangle(_ name: String) -> String? {
        var bytes = Substring(name).utf8[...]
        guard bytes.starts(with: "_Tt".utf8) else { return nil }
        bytes = bytes.dropFirst(3)
        // One C per level of nesting: _TtC is a class, _TtCC a class nested in a class.
        var nesting = 0
        while let first = bytes.first, first == UInt8(ascii: "C") {
            nesting += 1
            bytes = bytes.dropFirst()
        }
        guard nesting > 0 else { return nil }
        var parts: [String] = []
        if bytes.starts(with: "Ss".utf8) {
            parts.append("Swift")
            bytes = bytes.dropFirst(2)
        } else {
            guard let module = identifier(&bytes) else { return nil }
            parts.append(module)
        }
        for _ in 0..<nesting {
            guard let part = identifier(&bytes) else { return nil }
            parts.append(part)
        }
        guard bytes.isEmpty else { return nil }
        return parts.joined(separator: ".")
    }

    /// A decimal length followed by that many bytes.
    static func identifier(_ bytes: inout Substring.UTF8View.SubSequence) -> String? {
        var length = 0
        var digits = 0
        while let b = bytes.first, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
            length = length * 10 + Int(b - UInt8(ascii: "0"))
            digits += 1
            bytes = bytes.dropFirst()
            guard length < 10_000 else { return nil }
        }
        guard digits > 0, length > 0, bytes.count >= length else { return nil }
        let part = String(decoding: bytes.prefix(length), as: UTF8.self)
        bytes = bytes.dropFirst(length)
        return part
    }

    /// The mangled form of `Module.Class` (or `Module.Outer.Inner`), as the Swift runtime
    /// registers it with Objective-C.
    public static func mangle(_ dotted: String) -> String? {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        var out = "_Tt" + String(repeating: "C", count: parts.count - 1)
        for (i, p) in parts.enumerated() {
            if i == 0 && p == "Swift" { out += "Ss"; continue }
            out += "\(p.utf8.count)\(p)"
        }
        return out
    }
}
