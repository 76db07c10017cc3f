import Foundation
import PropertyList

/// The sweep report for people: a line per item, then the summary.
enum SweepReportText {
    /// `keyedArchive (binary)  1.2 kB  dump/a.plist  UIColor rgba(…) · refused: UIColor`
    static func line(_ item: SweepItem) -> String {
        let kind = item.kind.rawValue + (item.format.map { " (\($0.rawValue))" } ?? "")
        var text = pad(kind, 23) + pad(bytes(Int64(item.size)), 9) + "  " + item.path
        var notes: [String] = []
        if let summary = item.summary { notes.append(summary) }
        if let verdict = item.verdict {
            notes.append(verdict == .refused ? "refused: " + item.refusedClasses.joined(separator: ", ") : "accepted")
        }
        let archives = item.attributes.reduce(0) { $0 + $1.accepted + $1.refused }
        if archives > 0 {
            let refused = item.attributes.reduce(0) { $0 + $1.refused }
            notes.append("\(archives) archived \(archives == 1 ? "value" : "values")" + (refused > 0 ? ", \(refused) refused" : ""))
        }
        if let error = item.error { notes.append("error: " + error) }
        if !notes.isEmpty { text += "  " + notes.joined(separator: " · ") }
        return text
    }

    static func summary(_ summary: SweepSummary) -> String {
        var lines: [String] = []
        let kinds = SweepItemKind.allCases.compactMap { kind in summary.byKind[kind].map { "\(number($0)) \(kind.rawValue)" } }
        lines.append("\(number(summary.items)) \(summary.items == 1 ? "item" : "items") in \(number(summary.examined)) files and members "
                     + "(\(bytes(summary.examinedBytes))), \(String(format: "%.1f", summary.seconds)) s"
                     + (kinds.isEmpty ? "" : ": " + kinds.joined(separator: ", ")))
        if !summary.byVerdict.isEmpty {
            lines.append("archives: \(number(summary.byVerdict[.accepted] ?? 0)) accepted, \(number(summary.byVerdict[.refused] ?? 0)) refused by the allow-list")
        }
        let classes = summary.classCounts
        if !classes.isEmpty {
            let shown = classes.prefix(12).map { "\($0.name) \(number($0.count))" }.joined(separator: ", ")
            lines.append("classes (archives holding each): " + shown + (classes.count > 12 ? ", and \(classes.count - 12) more" : ""))
        }
        lines.append("\(number(summary.errors)) unreadable; \(number(summary.containers)) \(summary.containers == 1 ? "container" : "containers") opened"
                     + (summary.skipped > 0 ? "; \(number(summary.skipped)) links and special files passed over" : ""))
        return "\n" + lines.joined(separator: "\n") + "\n"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func number(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// `512 B`, `1.2 kB`, `3.4 MB`, `5.6 GB` (powers of 1,000).
    static func bytes(_ n: Int64) -> String {
        if n < 1000 { return "\(n) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(n) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }
}
