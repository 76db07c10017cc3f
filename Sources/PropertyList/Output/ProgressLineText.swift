import Foundation

/// The line a progress bar shows, as the long verbs draw it on a terminal (`scan`, `migrate`,
/// `model`, `sweep`): a bar of 30 cells, the percentage, and the work's own words after it.
package enum ProgressLineText {
    /// `█████████░░░…░  30% ` followed by `detail`, for `fraction` from 0 to 1 (outside, the bar
    /// is empty or full; the percentage is `fraction`'s).
    package static func line(fraction: Double, detail: String) -> String {
        let width = 30
        let filled = Int(max(0, min(1, fraction)) * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return String(format: "%@ %3.0f%% ", bar, fraction * 100) + detail
    }
}
