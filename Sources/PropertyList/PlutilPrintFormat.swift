import Foundation

/// `plutil -p`'s text, for the drop-in `plutil`: dictionaries as `{ "key" => value }` with keys
/// in plutil's order, arrays as `[ 0 => value ]`, two spaces per level, strings in quotes as
/// they are, data and dates as Foundation describes them.
///
/// `archivist print` (`PropertyListPrettyPrinter`) is the richer form: it escapes control
/// characters, keeps the document's key order and colors values.
public enum PlutilPrintFormat {
    /// The text of `value`, ending with a line break.
    public static func text(_ value: PropertyListValue) -> String {
        var out = ""
        append(value, indent: 2, to: &out)
        return out
    }

    static func append(_ value: PropertyListValue, indent: Int, to out: inout String) {
        let inner = String(repeating: " ", count: min(indent, 2 * PropertyListPrettyPrinter.maximumIndentation))
        let outer = String(inner.dropLast(2))
        switch value {
        case .dictionary(let d):
            out += "{\n"
            // The last entry of a repeated key is the one CF keeps.
            var last: [PropertyListValue: Int] = [:]
            for (i, k) in d.keys.enumerated() { last[k] = i }
            let order = last.keys.sorted { a, b in
                PropertyListKeyOrder.plutil(keyText(a), keyText(b))
            }
            for key in order {
                guard let i = last[key] else { continue }
                out += inner + "\"" + keyText(key) + "\" => "
                append(d.values[i], indent: indent + 2, to: &out)
            }
            out += outer + "}\n"
        case .array(let elements), .set(let elements):
            out += "[\n"
            for (i, element) in elements.enumerated() {
                out += inner + "\(i) => "
                append(element, indent: indent + 2, to: &out)
            }
            out += outer + "]\n"
        case .string(let s): out += "\"\(s)\"\n"
        case .invalidUTF16String(let units): out += "\"\(String(decoding: units, as: UTF16.self))\"\n"
        case .data(let d): out += dataDescription(d) + "\n"
        case .date(let d): out += PropertyListPrettyPrinter.dateText(d) + "\n"
        case .bool(let b): out += (b ? "true" : "false") + "\n"
        case .integer(let i): out += i.description + "\n"
        case .real(let r): out += numberText(r) + "\n"
        case .uid(let u): out += "<CFKeyedArchiverUID>{value = \(u)}\n"
        case .null: out += "<null>\n"
        }
    }

    static func keyText(_ key: PropertyListValue) -> String {
        switch key {
        case .string(let s): s
        case .integer(let i): i.description
        case .real(let r): numberText(r)
        default: PropertyListDifference.summary(of: key, limit: 60)
        }
    }

    /// A double as NSNumber describes it: `%.16g` (`0.1`, `1`, `1e+20`).
    static func numberText(_ r: Double) -> String {
        String(format: "%.16g", r)
    }

    /// NSData's description: the length and the bytes in groups of four; past 24 bytes, the
    /// first 16 and the last 8 around an ellipsis.
    public static func dataDescription(_ data: Data) -> String {
        func groups(_ bytes: some Collection<UInt8>) -> String {
            var text = ""
            for (i, b) in bytes.enumerated() {
                if i > 0, i % 4 == 0 { text += " " }
                text += String(format: "%02x", b)
            }
            return text
        }
        let hex = data.count <= 24 ? groups(data) : groups(data.prefix(16)) + " ... " + groups(data.suffix(8))
        return "{length = \(data.count), bytes = 0x\(hex)}"
    }
}
