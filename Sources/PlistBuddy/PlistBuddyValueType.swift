import Foundation
import PropertyList

/// The eight types PlistBuddy's `Add` and `Clear` name, and the type of an existing value that
/// `Set` and `Import` keep.
public enum PlistBuddyValueType: String, Sendable, Hashable, CaseIterable {
    case string, array, dict, bool, real, integer, date, data

    /// The type named `name`, ignoring case as PlistBuddy does (`String`, `INTEGER`); nil for
    /// any other word.
    public init?(name: String) {
        guard let type = Self.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(name) == .orderedSame }) else { return nil }
        self = type
    }

    /// The type PlistBuddy sees in `value`; nil for what CoreFoundation's property lists have no
    /// type for here (sets, UIDs, the null marker), which `Set` and `Import` leave alone.
    public init?(of value: PropertyListValue) {
        switch value {
        case .string, .invalidUTF16String: self = .string
        case .array: self = .array
        case .dictionary: self = .dict
        case .bool: self = .bool
        case .real: self = .real
        case .integer: self = .integer
        case .date: self = .date
        case .data: self = .data
        case .set, .uid, .null: return nil
        }
    }

    /// Whether values of this type hold entries (`Set` refuses them, `Merge` needs one).
    public var isContainer: Bool { self == .array || self == .dict }
}
