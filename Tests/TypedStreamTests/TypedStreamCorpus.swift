import Foundation

/// The shared typedstream corpus beside the repository (`../shared/corpus/typedstream`), read
/// through its INDEX.tsv; absent corpus, no test.
enum TypedStreamCorpus {
    static let root: URL? = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus/typedstream")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("INDEX.tsv").path) ? url : nil
    }()

    static var isAvailable: Bool { root != nil }

    struct Row {
        var path: String
        /// `big` or `little`, from the index's byte_order column (`big (typedstream)`).
        var byteOrder: String
        var what: String
    }

    static let rows: [Row] = {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = lines.removeFirst()
        func column(_ name: String, _ row: [String]) -> String {
            guard let i = header.firstIndex(of: name), i < row.count else { return "" }
            return row[i]
        }
        return lines.map {
            Row(path: column("path", $0), byteOrder: String(column("byte_order", $0).prefix { $0 != " " }), what: column("what", $0))
        }
    }()

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: root!.appendingPathComponent(path))
    }
}
