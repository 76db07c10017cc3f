import Foundation
import GRDB
import PropertyList
@testable import Sweep

/// The shared corpus beside the repository (`../shared/corpus`), read through its INDEX.tsv;
/// tests that need it are skipped when it is absent.
enum SharedCorpus {
    struct Entry {
        var path: String
        var format: String
        var isKeyedArchive: Bool
        var deliberatelyInvalid: String
    }

    static let root: URL? = {
        if let env = ProcessInfo.processInfo.environment["ARCHIVIST_CORPUS"] { return URL(fileURLWithPath: env) }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("INDEX.tsv").path) ? url : nil
    }()

    static var isAvailable: Bool { root != nil }

    static let entries: [Entry] = {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return [] }
        var rows = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard !rows.isEmpty else { return [] }
        let header = rows.removeFirst()
        func column(_ name: String, _ row: [String]) -> String {
            guard let i = header.firstIndex(of: name), i < row.count else { return "" }
            return row[i]
        }
        return rows.map { row in
            Entry(path: column("path", row), format: column("format", row), isKeyedArchive: column("is_keyed_archive", row) == "yes",
                  deliberatelyInvalid: column("deliberately_invalid", row))
        }
    }()
}

/// What a sweep must report at one place of the test tree.
enum Expectation: Equatable, CustomStringConvertible {
    /// Exactly this kind and format.
    case item(SweepItemKind, PropertyListFormat?)
    /// One of these kinds, in this format: files the corpus marks as ambiguous (Python's
    /// plistlib reads them, Apple's and other parsers do not).
    case either([SweepItemKind], PropertyListFormat)
    /// No record at all.
    case noise

    var description: String {
        switch self {
        case .item(let kind, let format): "\(kind.rawValue) \(format?.rawValue ?? "-")"
        case .either(let kinds, let format): kinds.map(\.rawValue).joined(separator: " or ") + " \(format.rawValue)"
        case .noise: "no record"
        }
    }

    func accepts(_ item: SweepItem?) -> Bool {
        switch self {
        case .item(let kind, let format): item?.kind == kind && item?.format == format
        case .either(let kinds, let format): item.map { kinds.contains($0.kind) && $0.format == format } ?? false
        case .noise: item == nil
        }
    }

    /// What the corpus index says a file is, as sweep must see it by its content alone:
    /// a binary or XML plist or archive by its kind (a deliberately broken one as unreadable);
    /// a valid OpenStep plist as a plist. A broken OpenStep file is ordinary text to a reader
    /// who knows no file names (text signals are weak: a JavaScript file may start with `(`),
    /// and files of format `other` (empty files, bare scalars, garbage) are noise.
    static func of(_ entry: SharedCorpus.Entry) -> Expectation {
        let format: PropertyListFormat
        switch entry.format {
        case let f where f.hasPrefix("bplist"): format = .binary
        case "xml": format = .xml
        case "openstep": format = .openStep
        default: return .noise
        }
        switch entry.deliberatelyInvalid {
        case "ambiguous": return .either([.plist, .unreadable], format)
        case "yes": return format == .openStep ? .noise : .item(.unreadable, format)
        default: return .item(entry.isKeyedArchive ? .keyedArchive : .plist, format)
        }
    }
}

/// A device extraction built from the shared corpus: every corpus file, a third of them in a
/// zip, a third in a tar.gz, the rest as files; a Core Data store (a copy of the corpus's
/// Accounts3.sqlite with its -wal and -shm); an SQLite database holding plists and an archive in
/// BLOB and TEXT cells; a damaged binary plist; a zip bomb; noise. The originals are only read.
struct SweepCorpusTree {
    let root: String
    /// Every place a record is expected (or must not be), relative to the tree's root.
    var expectations: [String: Expectation] = [:]
    static let storePath = "device/private/var/mobile/Library/Accounts/Accounts3.sqlite"
    static let cachePath = "device/private/var/mobile/Containers/Data/Application/Cache/cache.db"
    static let damagedPath = "device/private/var/mobile/Library/Preferences/damaged.bin"
    static let bombPath = "backup/bomb.zip"
    /// The per-item limit the tests sweep with, so that the bomb's plist is over it.
    static let itemLimit = 16 << 20

    static func make() throws -> SweepCorpusTree {
        guard let corpus = SharedCorpus.root else { throw ContainerBuilder.Failure(description: "no corpus") }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-sweep-tree-\(getpid())-\(UUID().uuidString)").path
        var tree = SweepCorpusTree(root: base + "/tree")
        let fm = FileManager.default
        func make(_ relative: String, _ data: Data) throws {
            let url = URL(fileURLWithPath: tree.root + "/" + relative)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        func copy(_ source: String, to relative: String) throws {
            let url = URL(fileURLWithPath: tree.root + "/" + relative)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contentsOf: URL(fileURLWithPath: source)).write(to: url)
        }
        try fm.createDirectory(atPath: tree.root + "/backup", withIntermediateDirectories: true)

        // The corpus, split three ways.
        var zipped: [(String, ContainerBuilder.Content)] = []
        var tarred: [(String, ContainerBuilder.Content)] = []
        for (index, entry) in SharedCorpus.entries.enumerated() {
            let source = corpus.appendingPathComponent(entry.path).path
            switch index % 3 {
            case 0:
                zipped.append((entry.path, .file(source)))
                tree.expectations["backup/part-a.zip!/" + entry.path] = .of(entry)
            case 1:
                tarred.append((entry.path, .file(source)))
                tree.expectations["backup/part-b.tar.gz!/" + entry.path] = .of(entry)
            default:
                try copy(source, to: "device/corpus/" + entry.path)
                tree.expectations["device/corpus/" + entry.path] = .of(entry)
            }
        }
        try ContainerBuilder.write(.zip, to: tree.root + "/backup/part-a.zip", members: zipped)
        try ContainerBuilder.write(.tarGzip, to: tree.root + "/backup/part-b.tar.gz", members: tarred)

        // A Core Data store, copied with its companions (the originals are evidence: only read).
        for suffix in ["", "-wal", "-shm"] {
            try copy(corpus.appendingPathComponent("stores/Accounts3.sqlite" + suffix).path, to: storePath + suffix)
        }
        tree.expectations[storePath] = .item(.coreDataStore, nil)
        tree.expectations[storePath + "-wal"] = .noise
        tree.expectations[storePath + "-shm"] = .noise

        // An app's cache: a binary plist in a BLOB, an XML plist in TEXT, an archive in a BLOB.
        let plist = try Data(contentsOf: corpus.appendingPathComponent("CFPropertyList-ruby/array.plist"))
        let xml = try String(contentsOf: corpus.appendingPathComponent("CFPropertyList-ruby/array.xml"), encoding: .utf8)
        let archive = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/archives/uicolor-tint.bplist"))
        try fm.createDirectory(atPath: (tree.root + "/" + cachePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: tree.root + "/" + cachePath)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE entries (id INTEGER PRIMARY KEY, payload BLOB, note TEXT)")
            try db.execute(sql: "INSERT INTO entries (id, payload, note) VALUES (1, ?, ?)", arguments: [plist, xml])
            try db.execute(sql: "INSERT INTO entries (id, payload, note) VALUES (2, ?, 'plain text')", arguments: [archive])
        }
        try queue.close()
        tree.expectations[cachePath] = .item(.sqlite, nil)
        tree.expectations[cachePath + "#entries.payload[id=1]"] = .item(.plist, .binary)
        tree.expectations[cachePath + "#entries.note[id=1]"] = .item(.plist, .xml)
        tree.expectations[cachePath + "#entries.payload[id=2]"] = .item(.keyedArchive, .binary)

        // A binary plist cut in half.
        let whole = try Data(contentsOf: corpus.appendingPathComponent("CFPropertyList-ruby/dictionary.plist"))
        try make(damagedPath, whole.prefix(whole.count / 2))
        tree.expectations[damagedPath] = .item(.unreadable, .binary)

        // A zip bomb: 128 MiB of zeros, and a "plist" of 64 MiB, both a few hundred kilobytes
        // compressed.
        try ContainerBuilder.write(.zip, to: tree.root + "/" + bombPath, members: [
            ("zeros.bin", .zeros(size: 128 << 20, prefix: Data())),
            ("huge.plist", .zeros(size: 64 << 20, prefix: Data("bplist00".utf8))),
        ])
        tree.expectations[bombPath + "!/zeros.bin"] = .noise
        tree.expectations[bombPath + "!/huge.plist"] = .item(.unreadable, .binary)

        // Noise an extraction is full of.
        var random = SystemRandomNumberGenerator()
        try make("device/noise/random.bin", Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) }))
        try make("device/noise/app.js", Data("(function () { window.x = 1; })();\n".utf8))
        try make("device/noise/page.html", Data("<!DOCTYPE html><html><body>plist</body></html>".utf8))
        try make("device/noise/data.json", Data(#"{"a": [1, 2, 3]}"#.utf8))
        try make("device/noise/notes.txt", Data("Shopping list: milk, eggs.\n".utf8))
        try make("device/noise/empty", Data())
        for name in ["random.bin", "app.js", "page.html", "data.json", "notes.txt", "empty"] {
            tree.expectations["device/noise/" + name] = .noise
        }
        return tree
    }

    /// The tree the tests share, built once (it takes a while) and removed when the tests end.
    static let shared: Result<SweepCorpusTree, any Error> = {
        let made = Result { try make() }
        if case .success(let tree) = made {
            sharedFolder = (tree.root as NSString).deletingLastPathComponent
            atexit { if let folder = SweepCorpusTree.sharedFolder { try? FileManager.default.removeItem(atPath: folder) } }
        }
        return made
    }()

    nonisolated(unsafe) static var sharedFolder: String?

    /// A 100 GB sparse file, in a folder of its own beside the tree (packed into a zip or a
    /// tar, it would be written out in full).
    func makeSparseFile() throws -> String {
        let path = (root as NSString).deletingLastPathComponent + "/vm/sleepimage"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw ContainerBuilder.Failure(description: "cannot create \(path)") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(100) << 30) == 0 else { throw ContainerBuilder.Failure(description: "cannot make \(path) sparse") }
        return path
    }

    /// The options the tests sweep with.
    /// The CLI's depth limit (the corpus holds a plist nested 100,000 deep), on workers with
    /// the stack it needs.
    static func options(jobs: Int = 2) -> SweepOptions {
        var options = SweepOptions(jobs: jobs)
        options.readOptions.propertyList.maximumInputSize = itemLimit
        options.readOptions.propertyList.maximumDepth = 200_000
        options.readOptions.maximumDepth = 200_000
        options.workerStackSize = 1 << 31
        return options
    }
}
