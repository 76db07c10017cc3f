import Foundation

/// The shared corpus (`../shared/corpus`), as its INDEX.tsv lists it.
struct ParityCorpus {
    struct Entry {
        /// The path inside the corpus, which names the file's inputs in reports.
        var path: String
        /// INDEX.tsv's format column: bplist00, xml, openstep, other…
        var format: String
        /// INDEX.tsv's producer column: Apple, third-party, crafted/fuzz, unknown.
        var producer: String
        var isKeyedArchive: Bool
        var url: URL
    }

    var root: URL
    var entries: [Entry]

    /// Reads `root/INDEX.tsv`; nil when there is no index there.
    init?(root: URL) {
        guard let text = try? String(contentsOf: root.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return nil }
        var rows = text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard !rows.isEmpty else { return nil }
        let header = rows.removeFirst()
        func column(_ name: String, _ row: [String]) -> String {
            guard let i = header.firstIndex(of: name), i < row.count else { return "" }
            return row[i]
        }
        self.root = root
        entries = rows.map { row in
            Entry(path: column("path", row), format: column("format", row), producer: column("producer", row),
                  isKeyedArchive: column("is_keyed_archive", row) == "yes",
                  url: root.appendingPathComponent(column("path", row)))
        }
    }

    /// The corpus beside the repository, or where ARCHIVIST_CORPUS says.
    static func locate(_ given: String?) -> ParityCorpus? {
        if let given { return ParityCorpus(root: URL(fileURLWithPath: given)) }
        if let env = ProcessInfo.processInfo.environment["ARCHIVIST_CORPUS"] {
            return ParityCorpus(root: URL(fileURLWithPath: env))
        }
        let beside = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return ParityCorpus(root: beside)
    }
}
