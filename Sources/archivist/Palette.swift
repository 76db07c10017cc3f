/// ANSI styles for report text, on only when the terminal shows them.
struct Palette {
    var enabled: Bool

    func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func good(_ s: String) -> String { paint(s, "32") }
    func bad(_ s: String) -> String { paint(s, "31;1") }
    func warn(_ s: String) -> String { paint(s, "33") }
    func dim(_ s: String) -> String { paint(s, "2") }
}
