import Foundation
import PropertyList

/// Makes the value a command's text stands for, as PlistBuddy does for `Add`, `Set`, `Clear`
/// and `Import`: text read with C's conversions, reals kept at float precision, and a message
/// (on standard output) when the text is no value of the type.
struct PlistBuddyValueMaker {
    var dates: PlistBuddyDateFormat

    /// The outcome: a value, or none with the message PlistBuddy prints (nil: it prints none).
    struct Made {
        var value: PropertyListValue?
        var message: String?
    }

    /// The value of `type` that `text` gives. `text` is nil when the command's value had an
    /// unclosed quote, which makes no value of most types.
    func make(_ type: PlistBuddyValueType, text: [UInt8]?) -> Made {
        switch type {
        case .array:
            return Made(value: .array([]))
        case .dict:
            return Made(value: .dictionary(PropertyListDictionary()))
        case .string:
            // A C string: up to the first NUL, and no string at all when it is not UTF-8.
            guard let text, let string = String(validating: Self.cString(text), as: UTF8.self) else { return Made() }
            return Made(value: .string(string))
        case .bool:
            guard let text else { return Made() }
            let word = String(decoding: Self.cString(text), as: UTF8.self).lowercased()
            return Made(value: .bool(word == "true" || word == "yes" || word == "1"))
        case .real:
            guard let text else { return Made(message: "Unrecognized Real Format") }
            switch CNumberScanner.real(Self.cString(text)) {
            case .noMatch: return Made(message: "Unrecognized Real Format")
            case .endOfInput: return Made(value: .real(0))
            // %f stores a float: the value keeps float precision (3.14 is 3.1400001049041748).
            case .value(let v): return Made(value: .real(Double(Float(v))))
            }
        case .integer:
            guard let text else { return Made(message: "Unrecognized Integer Format") }
            switch CNumberScanner.integer(Self.cString(text)) {
            case .noMatch: return Made(message: "Unrecognized Integer Format")
            case .endOfInput: return Made(value: .integer(PropertyListInteger(0)))
            case .value(let v): return Made(value: .integer(PropertyListInteger(v)))
            }
        case .date:
            guard let text else { return Made() }
            guard let date = dates.date(from: Self.cString(text)) else { return Made(message: "Unrecognized Date Format") }
            // PlistBuddy takes a time of 0 (2001-01-01 00:00:00 UTC) for its own failure, silently.
            guard date.timeIntervalSinceReferenceDate != 0 else { return Made() }
            return Made(value: .date(date))
        case .data:
            guard let text else { return Made() }
            return Made(value: .data(Data(text)))
        }
    }

    /// The bytes before the first NUL.
    static func cString(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.firstIndex(of: 0).map { bytes[..<$0] } ?? bytes[...]
    }
}
