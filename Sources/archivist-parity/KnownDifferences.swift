import Foundation

/// The differences the docs explain (docs/parity.md), as the harness reads them from
/// `Tests/Parity/known-differences.tsv`: each line names a row of the docs' table, the two
/// verdicts it expects, and the inputs it covers.
///
///     # row <TAB> CF's verdict <TAB> ours <TAB> inputs
///     cf-crash-…	crashed	refused	corpus/path.plist#binary.marker@3=0x9f
///
/// Verdicts are accepted, refused, crashed, hung or `*`, and `accepted:json` (or another format)
/// for an input read as that format; `accepted` on both sides means the values or formats differ. Inputs are a pattern over "corpus path#mutation" where `*`
/// stands for any run of characters.
struct KnownDifferences {
    struct Row {
        var name: String
        var cf: String
        var ours: String
        var pattern: String
        var line: Int
    }

    var rows: [Row] = []

    init() {}

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4 else {
                throw ParityUsageError("\(url.path):\(i + 1): expected four tab-separated fields")
            }
            rows.append(Row(name: fields[0], cf: fields[1], ours: fields[2], pattern: fields[3], line: i + 1))
        }
    }

    /// The row that explains this difference, if any.
    func row(for key: String, cf: ParityOutcome, ours: ParityOutcome) -> Row? {
        rows.first { row in
            Self.verdictMatches(row.cf, cf) && Self.verdictMatches(row.ours, ours) && Self.matches(key, row.pattern)
        }
    }

    /// `*`, a verdict, or `accepted:FORMAT` for an input read as that format.
    static func verdictMatches(_ expected: String, _ outcome: ParityOutcome) -> Bool {
        if expected == "*" || expected == outcome.verdict { return true }
        if case .accepted(let format, _) = outcome { return expected == "accepted:\(format)" }
        return false
    }

    /// `*`-only glob matching.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return text == pattern }
        guard text.hasPrefix(parts[0]) else { return false }
        var rest = text.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        let last = parts[parts.count - 1]
        return last.isEmpty || (rest.hasSuffix(last) && rest.count >= last.count)
    }
}

struct ParityUsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
