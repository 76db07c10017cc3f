import Foundation

/// Numbers and counts as the text reports write them: `1,234`, `1 table`, `2 tables`,
/// `UIColor 90, NSColor 3`.
package enum CountText {
    /// `1,234`: digits grouped by threes, as in English, whatever the locale.
    package static func number(_ n: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_US")
        return formatter.string(from: NSNumber(value: n)) ?? String(n)
    }

    /// `1 table`, `2 tables`, `1,000 rows`.
    package static func counted(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number(n)) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// `UIColor 90, NSColor 3`.
    package static func list(_ pairs: [(name: String, count: Int)]) -> String {
        pairs.map { "\($0.name) \(number($0.count))" }.joined(separator: ", ")
    }
}
