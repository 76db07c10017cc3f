/// ANSI styles for report text, on only when the terminal shows them: the one palette the text
/// reports of every library (scan, check, model, migrate) color their words with.
package struct ReportPalette: Sendable {
    package var enabled: Bool

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    package func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    package func good(_ s: String) -> String { paint(s, "32") }
    package func bad(_ s: String) -> String { paint(s, "31;1") }
    package func warn(_ s: String) -> String { paint(s, "33") }
    package func dim(_ s: String) -> String { paint(s, "2") }
}
