import Foundation

/// The real Core Data stores of the shared corpus (`../shared/corpus/stores`, listed in its
/// STORES.tsv), handed to tests as private copies: the originals are evidence and are never
/// opened, so no SQLite connection can touch them or their -wal/-shm files.
public enum CorpusStores {
    public static let directory: URL? = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let base = ProcessInfo.processInfo.environment["ARCHIVIST_CORPUS"].map { URL(fileURLWithPath: $0) }
            ?? repo.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let url = base.appendingPathComponent("stores")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("STORES.tsv").path) ? url : nil
    }()

    public static var isAvailable: Bool { directory != nil }

    /// The store files STORES.tsv lists.
    public static let names: [String] = {
        guard let directory, let text = try? String(contentsOf: directory.appendingPathComponent("STORES.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) }
    }()

    /// A copy of `name` (with its -wal and -shm) in a fresh temporary folder.
    public static func copy(_ name: String) throws -> String {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-corpus-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            let source = directory.appendingPathComponent(name + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let copy = target.appendingPathComponent(name + suffix)
            try FileManager.default.copyItem(at: source, to: copy)
            // The evidence is read-only; a copy that tests migrate must not be.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        }
        return target.appendingPathComponent(name).path
    }
}
