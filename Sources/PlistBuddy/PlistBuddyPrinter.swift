import Foundation
import PropertyList

/// `Print`'s output, as PlistBuddy writes it:
///
/// ```
/// Dict {
///     CFBundleName = Example
///     UIDeviceFamily = Array {
///         1
///         2
///     }
/// }
/// ```
///
/// Four spaces a level; strings and keys raw, without quotes or escapes; integers in decimal;
/// reals with `%f` at float precision (`3.140000`); booleans `true` and `false`; dates as
/// `PlistBuddyDateFormat` shows them; data as its raw bytes. Dictionaries list their entries in
/// the document's order. Values a Mac's property lists have no printing for here (sets, UIDs,
/// the null marker) print as `Unprintable Data`.
public struct PlistBuddyPrinter: Sendable {
    public var dates: PlistBuddyDateFormat

    public init(dates: PlistBuddyDateFormat = PlistBuddyDateFormat()) {
        self.dates = dates
    }

    /// `value` printed, with the line break that ends the output.
    public func text(_ value: PropertyListValue) -> Data {
        var out: [UInt8] = []
        write(value, indent: 0, into: &out)
        out.append(0x0A)
        return Data(out)
    }

    /// `value` as `Print` shows a real: `%f` of the value narrowed to a float.
    public static func realText(_ value: Double) -> String {
        String(format: "%f", Double(Float(value)))
    }

    func write(_ value: PropertyListValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .string(let s):
            out.append(contentsOf: s.utf8)
        case .invalidUTF16String:
            // Not UTF-8 text: CFStringGetCString fails and PlistBuddy prints nothing.
            break
        case .integer(let i):
            out.append(contentsOf: i.description.utf8)
        case .real(let r):
            out.append(contentsOf: Self.realText(r).utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .date(let d):
            out.append(contentsOf: dates.text(for: d).utf8)
        case .data(let d):
            out.append(contentsOf: d)
        case .array(let elements):
            out.append(contentsOf: "Array {\n".utf8)
            for element in elements {
                pad(indent + 1, &out)
                write(element, indent: indent + 1, into: &out)
                out.append(0x0A)
            }
            pad(indent, &out)
            out.append(UInt8(ascii: "}"))
        case .dictionary(let d):
            out.append(contentsOf: "Dict {\n".utf8)
            for (key, entry) in d {
                pad(indent + 1, &out)
                write(key, indent: indent + 1, into: &out)
                out.append(contentsOf: " = ".utf8)
                write(entry, indent: indent + 1, into: &out)
                out.append(0x0A)
            }
            pad(indent, &out)
            out.append(UInt8(ascii: "}"))
        case .set, .uid, .null:
            out.append(contentsOf: "Unprintable Data".utf8)
        }
    }

    func pad(_ level: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0x20, count: 4 * level))
    }
}
