import Foundation
import Testing
@testable import ArchivePayload
import KeyedArchive
import PropertyList

/// `check` judges an archive from its classes alone (`KeyedArchiveClassIndex`) when every
/// object passes; that report must be the one the decoded archive gives, and any archive with
/// something to report must be left to it.
enum ClassIndexCheck {
    static let lists: [(String, AllowList)] = [
        ("default", .transformerDefault),
        ("default and UIColor", .transformerDefault(adding: ["UIColor"])),
        ("only NSArray and NSString", AllowList(classes: ["NSArray", "NSString"])),
        ("NSObject", AllowList(classes: ["NSObject"])),
        ("trusting the archive", AllowList(classes: AllowList.transformerDefaultClasses, trustsArchiveHierarchy: true)),
    ]

    /// What differs between the two ways of checking `data`, or nil.
    static func difference(_ data: Data) -> String? {
        guard let index = KeyedArchiveClassIndex(data: data) else { return nil }
        guard let archive = try? KeyedArchive(data: data) else { return "the class index reads an archive that does not decode" }
        for (name, list) in lists {
            let checker = AllowListChecker(allowList: list)
            let full = checker.check(archive)
            if let quick = checker.acceptedReport(index) {
                if quick != full { return "\(name): the reports differ" }
            } else if full.isAccepted, !full.warnings.contains(where: { $0.path != nil }) {
                return "\(name): an archive with nothing to report was left to the decoder"
            }
        }
        return nil
    }
}

@Suite struct AllowListClassIndexTests {
    @Test func everyFixtureIsJudgedTheSameFromItsClasses() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixture.directory.path).sorted()
        var judged = 0
        for name in names {
            let data = try Fixture.data(name)
            if KeyedArchiveClassIndex(data: data) != nil { judged += 1 }
            #expect(ClassIndexCheck.difference(data) == nil, "\(name)")
        }
        #expect(judged >= 5)
    }

    @Test func aRefusedClassIsReportedFromTheDecodedArchiveWithItsPath() throws {
        let data = try Fixture.data("uicolor-tint.bplist")
        let index = try #require(KeyedArchiveClassIndex(data: data))
        #expect(AllowListChecker().acceptedReport(index) == nil)
        let report = AllowListChecker().check(try KeyedArchive(data: data))
        #expect(!report.isAccepted)
        #expect(AllowListChecker(allowList: .transformerDefault(adding: ["UIColor"])).acceptedReport(index)?.isAccepted == true)
    }

    @Test func anInlineTypeNotListedIsLeftToTheDecodedArchiveForItsWarning() throws {
        let data = try Fixture.data("legacy-string-array.bplist")
        let index = try #require(KeyedArchiveClassIndex(data: data))
        let only = AllowListChecker(allowList: AllowList(classes: ["NSArray"]))
        #expect(only.acceptedReport(index) == nil)
        let report = only.check(try KeyedArchive(data: data))
        #expect(report.isAccepted)
        #expect(report.warnings.contains { $0.kind == .implicitPlistType && $0.path != nil })
    }
}

@Suite(.enabled(if: ClassIndexCorpus.root != nil, "../shared/corpus is absent"))
struct AllowListClassIndexCorpusTests {
    @Test func everyBinaryFileOfTheCorpusIsJudgedTheSameFromItsClasses() throws {
        let root = try #require(ClassIndexCorpus.root)
        var failures: [String] = []
        var judged = 0
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        // Stores are evidence that is never opened here; only plists and archives are read.
        for url in files where !url.hasDirectoryPath && !url.path.contains("/stores/") {
            guard let data = try? Data(contentsOf: url), data.starts(with: Array("bplist".utf8)) else { continue }
            if KeyedArchiveClassIndex(data: data) != nil { judged += 1 }
            if let difference = ClassIndexCheck.difference(data) { failures.append("\(url.lastPathComponent): \(difference)") }
        }
        #expect(judged > 30)
        #expect(failures.isEmpty, "\(failures)")
    }
}

/// The shared corpus beside the repository, when it is there.
enum ClassIndexCorpus {
    static let root: URL? = {
        let url = Fixture.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()
}
