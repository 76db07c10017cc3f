import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// The shared corpus beside the repository, read through its INDEX.tsv; absent corpus, no test.
enum ArchiveCorpus {
    static let root: URL? = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("INDEX.tsv").path) ? url : nil
    }()

    static var isAvailable: Bool { root != nil }

    /// (path, isKeyedArchive, deliberatelyInvalid, invalidLevel, producer) for every row.
    static let rows: [(path: String, archive: Bool, invalid: String, level: String, producer: String)] = {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = lines.removeFirst()
        func col(_ n: String, _ r: [String]) -> String {
            guard let i = header.firstIndex(of: n), i < r.count else { return "" }
            return r[i]
        }
        return lines.map { (col("path", $0), col("is_keyed_archive", $0) == "yes", col("deliberately_invalid", $0), col("invalid_level", $0),
                            col("producer", $0)) }
    }()

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: root!.appendingPathComponent(path))
    }
}

@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct KeyedArchiveCorpusTests {
    @Test func everyValidKeyedArchiveInTheCorpusDecodes() throws {
        // The index decides which files are valid archives; the count follows it.
        let rows = ArchiveCorpus.rows.filter { $0.archive && $0.invalid == "no" }
        #expect(!rows.isEmpty, "INDEX.tsv lists no valid keyed archive")
        var failures: [String] = []
        for row in rows {
            do {
                let archive = try KeyedArchive(data: try ArchiveCorpus.data(row.path))
                if archive.decodedObjects.isEmpty && archive.root != .null && archive.root != nil { failures.append("\(row.path): no objects") }
            } catch {
                failures.append("\(row.path): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func everyBrokenKeyedArchiveInTheCorpusIsRefused() throws {
        // Every file the index marks broken at the archive level is refused, however many it lists.
        let rows = ArchiveCorpus.rows.filter { $0.invalid == "yes" && $0.level == "archive" }
        #expect(!rows.isEmpty, "INDEX.tsv lists no broken keyed archive")
        var accepted: [String] = []
        for row in rows {
            if (try? KeyedArchive(data: try ArchiveCorpus.data(row.path))) != nil { accepted.append(row.path) }
        }
        #expect(accepted.isEmpty, "\(accepted)")
    }
}
