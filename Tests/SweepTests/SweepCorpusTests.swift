import Foundation
import PropertyList
import Testing
@testable import Sweep

/// Sweeps of a device extraction built from the shared corpus (`SweepCorpusTree`): as a folder,
/// as a zip and as a tar, sweep finds exactly what the corpus index says is there.
@Suite(.enabled(if: SharedCorpus.isAvailable, "the shared corpus is not beside the repository"), .serialized)
struct SweepCorpusTests {
    /// Records by their path relative to the swept tree (`backup/part-a.zip!/…` whether the
    /// tree was a folder or itself a zip or tar).
    static func byRelativePath(_ report: SweepReport, prefix: String) -> [String: SweepItem] {
        var records: [String: SweepItem] = [:]
        for item in report.items {
            #expect(item.path.hasPrefix(prefix), "\(item.path) is outside the swept tree")
            let relative = String(item.path.dropFirst(prefix.count))
            #expect(records[relative] == nil, "two records for \(relative)")
            records[relative] = item
        }
        return records
    }

    /// Checks every expectation, and that every other record is inside an expected item (a
    /// database's cell, a document in another's data).
    static func check(_ records: [String: SweepItem], against tree: SweepCorpusTree, variant: String) {
        for (path, expectation) in tree.expectations where !expectation.accepts(records[path]) {
            Issue.record("\(variant): \(path): expected \(expectation), got \(records[path].map { "\($0.kind.rawValue) \($0.format?.rawValue ?? "-") \($0.error ?? "")" } ?? "no record")")
        }
        let found = Set(tree.expectations.compactMap { $0.value == .noise ? nil : $0.key })
        for path in records.keys where tree.expectations[path] == nil {
            // A nested record: the path of a found item, then `#` (a cell) or `/` and a key path.
            let parent = found.first { path.hasPrefix($0 + "#") || path.hasPrefix($0 + "/root") || path.hasPrefix($0 + "/$top") }
            #expect(parent != nil, "\(variant): a record nobody expected: \(path)")
        }
    }

    @Test func aFolderTreeHoldsExactlyWhatTheCorpusIndexSays() throws {
        let tree = try SweepCorpusTree.shared.get()
        let sparse = try tree.makeSparseFile()
        defer { try? FileManager.default.removeItem(atPath: sparse) }
        let before = try TreeSnapshot(tree.root)
        let report = try Sweeper(options: SweepCorpusTree.options()).sweep([tree.root, sparse])
        // The tree is evidence: the Accounts3 copy (WAL mode, with its -wal and -shm) and the
        // cache database included, nothing was written beside or into anything read.
        #expect(try before.changes(to: TreeSnapshot(tree.root)) == [])
        #expect(!report.items.contains { $0.path == sparse }, "a 100 GB sparse file of zeros is noise")
        let records = Self.byRelativePath(report, prefix: tree.root + "/")
        Self.check(records, against: tree, variant: "folder")

        // Every corpus file was looked at, in and out of containers, and nothing failed twice.
        #expect(report.summary.examined >= SharedCorpus.entries.count + 1)
        #expect(report.summary.containers == 3)
        #expect(report.summary.errors == report.items.filter { $0.kind == .unreadable }.count)
        #expect(report.summary.items == report.items.count)
        for item in report.items where item.kind == .unreadable {
            #expect(item.error?.isEmpty == false, "\(item.path) is unreadable without a reason")
        }
    }

    /// The corpus's real stores (WAL mode, each with its -wal and -shm) are evidence: swept where
    /// they lie, they are each a Core Data store, and not a byte, a time or a file around them
    /// changes.
    @Test func theRealStoresAreSweptWhereTheyLieWithoutChangingAnything() throws {
        let stores = try #require(SharedCorpus.root).appendingPathComponent("stores").path
        let before = try TreeSnapshot(stores)
        let report = try Sweeper(options: SweepOptions(jobs: 2)).sweep([stores])
        #expect(try before.changes(to: TreeSnapshot(stores)) == [])

        let names = try FileManager.default.contentsOfDirectory(atPath: stores).filter { $0.hasSuffix(".sqlite") }
        #expect(names.count >= 6)
        for name in names {
            let store = report.items.first { $0.path == stores + "/" + name }
            #expect(store?.kind == .coreDataStore, "\(name): \(store?.error ?? "no record")")
        }
        #expect(report.summary.errors == 0)
        #expect(report.items.filter { $0.kind == .keyedArchive }.count > 600, "the stores' archived attributes, cell by cell")
    }

    @Test func theStoreAndTheCacheDatabaseAreReportedWithTheirCells() throws {
        let tree = try SweepCorpusTree.shared.get()
        let report = try Sweeper(options: SweepCorpusTree.options()).sweep([tree.root + "/device"])
        let records = Self.byRelativePath(report, prefix: tree.root + "/")

        let store = try #require(records[SweepCorpusTree.storePath])
        #expect(store.kind == .coreDataStore)
        #expect(store.summary?.hasPrefix("Core Data store: 7 entities") == true)
        let archived = store.attributes.filter { $0.accepted + $0.refused > 0 }
        #expect(!archived.isEmpty, "Accounts3 holds keyed archives in its Transformable attributes")
        let cells = records.filter { $0.key.hasPrefix(SweepCorpusTree.storePath + "#Z") && !$0.key.contains("]/") }
        let documents = store.attributes.reduce(0) { total, attribute in
            total + ["keyedArchiveBinary", "keyedArchiveXML", "propertyList", "unreadable"].reduce(0) { $0 + (attribute.kinds[$1] ?? 0) }
        }
        #expect(cells.count == documents, "one record for each document scan counted in a cell, and no more")
        #expect(cells.values.filter { $0.kind == .keyedArchive }.count == archived.reduce(0) { $0 + $1.accepted + $1.refused })
        #expect(cells.keys.allSatisfy { $0.contains("[Z_PK=") })

        let archive = try #require(records[SweepCorpusTree.cachePath + "#entries.payload[id=2]"])
        #expect(archive.classes == [SweepClassCount(name: "UIColor", count: 1)])
        #expect(archive.verdict == .refused)
        #expect(archive.refusedClasses == ["UIColor"])
        #expect(records[SweepCorpusTree.cachePath + "#entries.note[id=2]"] == nil, "plain text is no item")
    }

    @Test func theZipBombCostsNoMoreThanTheLimitsAllow() throws {
        let tree = try SweepCorpusTree.shared.get()
        let report = try Sweeper(options: SweepCorpusTree.options()).sweep([tree.root + "/" + SweepCorpusTree.bombPath])
        let records = Self.byRelativePath(report, prefix: tree.root + "/")
        #expect(records.count == 1)
        let huge = try #require(records[SweepCorpusTree.bombPath + "!/huge.plist"])
        #expect(huge.kind == .unreadable)
        #expect(huge.error?.contains("over the per-item limit of \(SweepCorpusTree.itemLimit)") == true)
        #expect(report.summary.examinedBytes == (128 << 20) + (64 << 20), "both members' sizes counted, neither read")
    }

    @Test(arguments: [ContainerBuilder.Kind.zip, .tar])
    func theSameTreeInOneContainerHoldsTheSameItems(_ kind: ContainerBuilder.Kind) throws {
        let tree = try SweepCorpusTree.shared.get()
        let container = (tree.root as NSString).deletingLastPathComponent + (kind == .zip ? "/tree.zip" : "/tree.tar")
        try ContainerBuilder.pack(tree.root, as: kind, to: container)
        defer { try? FileManager.default.removeItem(atPath: container) }
        let folder = Self.byRelativePath(try Sweeper(options: SweepCorpusTree.options()).sweep([tree.root]), prefix: tree.root + "/")
        let packed = try Sweeper(options: SweepCorpusTree.options()).sweep([container])
        let records = Self.byRelativePath(packed, prefix: container + "!/")
        Self.check(records, against: tree, variant: "\(kind)")
        #expect(Set(records.keys) == Set(folder.keys))
        for (path, item) in folder {
            #expect(records[path]?.kind == item.kind && records[path]?.format == item.format && records[path]?.size == item.size,
                    "\(path): \(item.kind) in the folder, \(records[path].map { "\($0.kind)" } ?? "nothing") in the \(kind)")
        }
        #expect(packed.summary.containers == 4)
    }

    @Test func oneJobFindsWhatTwoFind() throws {
        let tree = try SweepCorpusTree.shared.get()
        let one = try Sweeper(options: SweepCorpusTree.options(jobs: 1)).sweep([tree.root])
        let two = try Sweeper(options: SweepCorpusTree.options(jobs: 2)).sweep([tree.root])
        #expect(one.items.map(\.path).sorted() == two.items.map(\.path).sorted())
        var withoutTime = (one.summary, two.summary)
        withoutTime.0.seconds = 0
        withoutTime.1.seconds = 0
        #expect(withoutTime.0 == withoutTime.1)
    }
}
