import PropertyList

/// The object a payload holds where the archive's graph loops back (with
/// `PayloadOptions.breaksCycles`): `{"$ref": "#/items/0/owner"}`, a JSON Reference whose value is
/// the URI fragment of a JSON Pointer (RFC 6901, section 6) to where the object referred to is
/// written in the same payload; `"#"` is the whole payload.
///
/// JSON Schema, OpenAPI and JSON Reference tools resolve this form, and a pipeline can follow
/// it with any JSON Pointer library after dropping the `#`. A property list holds the same
/// dictionary.
public enum PayloadReference {
    /// The key of a reference object.
    public static let key = "$ref"

    /// The reference object for the value at `tokens` (the pointer's reference tokens, unescaped).
    public static func object(to tokens: [String]) -> PropertyListValue {
        .dictionary(PropertyListDictionary([(.string(key), .string(fragment(tokens)))]))
    }

    /// `#` and the JSON Pointer of `tokens`: `~` written `~0`, `/` written `~1`, and each byte
    /// a URI fragment may not hold percent-encoded (`#/a%20b`).
    public static func fragment(_ tokens: [String]) -> String {
        var out = "#"
        for token in tokens {
            out += "/"
            for byte in token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1").utf8 {
                if allowedInFragment(byte) {
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
                }
            }
        }
        return out
    }

    /// RFC 3986's fragment characters: unreserved, sub-delims, `:`, `@`, `/` and `?`.
    static func allowedInFragment(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-._~!$&'()*+,;=:@/?".utf8.contains(b)
        }
    }
}
