/// A string between double quotes, with backslash, the quote, newline, return and tab escaped
/// as `\\`, `\"`, `\n`, `\r` and `\t`: what the pretty printer, the Swift and Objective-C
/// literal writers and Codegen's Swift have in common. Each escapes the other scalars it must
/// its own way (`\u{7}`, `\007`, `\u0007`).
package enum QuotedString {
    /// `text` quoted; `escape` gives the escape of any other scalar, or nil to keep it as it is.
    package static func quoted(_ text: String, escaping escape: (Unicode.Scalar) -> String?) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if let escaped = escape(scalar) {
                    out += escaped
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
