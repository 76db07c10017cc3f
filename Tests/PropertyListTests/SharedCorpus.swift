import Foundation
import Testing
import PropertyList

/// The shared corpus of real property lists beside the repository (`../shared/corpus`), described
/// by its INDEX.tsv. Tests that use it skip cleanly when it is absent.
struct SharedCorpus {
    struct Entry: CustomStringConvertible {
        var path: String
        var format: String
        var isKeyedArchive: Bool
        var deliberatelyInvalid: String
        var producer: String
        var plistlib: String
        var invalidLevel: String
        var url: URL

        var description: String { path }
        var isValid: Bool { deliberatelyInvalid == "no" }
        var isInvalidPlist: Bool { deliberatelyInvalid == "yes" && invalidLevel == "plist" }
    }

    static let root: URL? = {
        if let env = ProcessInfo.processInfo.environment["ARCHIVIST_CORPUS"] {
            return URL(fileURLWithPath: env)
        }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("INDEX.tsv").path) ? url : nil
    }()

    static var isAvailable: Bool { root != nil }

    static let entries: [Entry] = {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst()
        func column(_ name: String, _ row: [String]) -> String {
            guard let i = header.firstIndex(of: name), i < row.count else { return "" }
            return row[i]
        }
        return lines.map { row in
            Entry(path: column("path", row), format: column("format", row),
                  isKeyedArchive: column("is_keyed_archive", row) == "yes",
                  deliberatelyInvalid: column("deliberately_invalid", row), producer: column("producer", row),
                  plistlib: column("python_plistlib", row), invalidLevel: column("invalid_level", row),
                  url: root.appendingPathComponent(column("path", row)))
        }
    }()

    static func entries(where predicate: (Entry) -> Bool) -> [Entry] { entries.filter(predicate) }
}

/// Runs `body` on a thread with a deep stack, for tests of very deep trees in debug builds.
func onDeepStack<T>(_ body: @escaping () -> T) -> T {
    var result: T?
    guard DeepStackThread.run(stackSize: 1 << 31, { result = body() }), let result else {
        Issue.record("could not start a thread with a 2 GiB stack")
        return body()
    }
    return result
}
