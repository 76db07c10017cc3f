import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// Class renames on the raw archive: only class names change, everything else is kept.
@Suite struct KeyedArchiveClassRenamerTests {
    func rename(_ pairs: [String]) throws -> KeyedArchiveClassRenamer {
        KeyedArchiveClassRenamer(renames: try pairs.map { try KeyedArchiveClassRenamer.Rename($0) })
    }

    /// A `Base` subclass `Color` (mangled), two objects sharing its class description, a hint.
    func sample() throws -> Data {
        var b = KeyedArchiveBuilder()
        let first = b.object("_TtC6OldApp5Color", chain: ["_TtC6OldApp5Color", "OldApp.Base", "NSObject"], hints: ["OldApp.Color"],
                             fields: [ArchivedField(key: "red", value: .inline(.real(0.5)))])
        let second = b.object("_TtC6OldApp5Color", chain: ["_TtC6OldApp5Color", "OldApp.Base", "NSObject"], hints: ["OldApp.Color"],
                              fields: [ArchivedField(key: "red", value: .inline(.real(1)))])
        let base = b.object("OldApp.Base", chain: ["OldApp.Base", "NSObject"], fields: [ArchivedField(key: "next", value: first)])
        let root = b.array([first, second, base, first])
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    @Test func namesChangeInClassNamesChainsAndHintsAndNothingElse() throws {
        let data = try sample()
        let result = try rename(["OldApp.Color=NewApp.Color", "OldApp.Base=NewApp.Base"]).rewrite(data)
        let before = try PropertyListReader().read(data).value
        let after = try PropertyListReader().read(result.data).value
        let objectsBefore = try #require(before.dictionaryValue?["$objects"]?.arrayValue)
        let objectsAfter = try #require(after.dictionaryValue?["$objects"]?.arrayValue)
        #expect(objectsBefore.count == objectsAfter.count)
        let changed = result.report.changes.map(\.uid)
        for i in objectsBefore.indices where !changed.contains(i) { #expect(objectsBefore[i] == objectsAfter[i], "object \(i)") }
        #expect(before.dictionaryValue?["$top"] == after.dictionaryValue?["$top"])
        #expect(result.report.changes.map(\.newName) == ["NewApp.Color", "NewApp.Base"])
        let color = try #require(changed.first.flatMap { objectsAfter[$0].dictionaryValue })
        #expect(color["$classes"] == ["NewApp.Color", "NewApp.Base", "NSObject"])
        #expect(color["$classhints"] == ["NewApp.Color"])
        // The decoded graphs are the same, class names aside: shared objects stay shared.
        let renamer = try rename(["OldApp.Color=NewApp.Color", "OldApp.Base=NewApp.Base"])
        let original = try KeyedArchive(data: data), rewritten = try KeyedArchive(data: result.data)
        #expect(original.isEquivalent(to: rewritten, renamingClasses: renamer.renamed))
        #expect(!original.isEquivalent(to: rewritten))
    }

    @Test(arguments: ["OldApp.Color", "_TtC6OldApp5Color"])
    func theOldNameMatchesInEitherFormWhicheverTheArchiveHolds(old: String) throws {
        let result = try rename(["\(old)=NewApp.Color"]).rewrite(try sample())
        #expect(result.report.matched == [0])
        #expect(result.report.changes.count == 1)
        let colors = try KeyedArchive(data: result.data).decodedObjects.filter { $0.className.hasSuffix("Color") }
        #expect(colors.map(\.className) == ["NewApp.Color", "NewApp.Color"])
    }

    @Test func theNewNameIsWrittenAsSwiftWritesIt() throws {
        #expect(try KeyedArchiveClassRenamer.Rename("A=NewApp.Color").written == "NewApp.Color")
        #expect(try KeyedArchiveClassRenamer.Rename("A=NewApp.Outer.Inner").written == "_TtCC6NewApp5Outer5Inner")
        #expect(try KeyedArchiveClassRenamer.Rename("A=_TtC6NewApp5Color").written == "_TtC6NewApp5Color")
        #expect(try KeyedArchiveClassRenamer.Rename("A=MYColor").written == "MYColor")
    }

    @Test func aRenameAlreadyDoneMatchesButChangesNothing() throws {
        let once = try rename(["OldApp.Color=NewApp.Color"]).rewrite(try sample())
        let twice = try rename(["NewApp.Color=NewApp.Color"]).rewrite(once.data)
        #expect(twice.report.matched == [0])
        #expect(twice.report.changes.isEmpty)
        let again = try rename(["OldApp.Color=NewApp.Color"]).rewrite(once.data)
        #expect(again.report.matched.isEmpty)
        #expect(again.report.classNames == ["NewApp.Color", "OldApp.Base", "NSArray"])
    }

    @Test(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
    func withoutRenamesEveryCorpusArchiveConvertsToXMLAndBackUnchanged() throws {
        let rows = ArchiveCorpus.rows.filter { $0.archive && $0.invalid == "no" }
        for row in rows {
            let data = try ArchiveCorpus.data(row.path)
            let original = try PropertyListReader().read(data).value
            let xml = try KeyedArchiveClassRenamer(renames: []).rewrite(data, to: .xml)
            let binary = try KeyedArchiveClassRenamer(renames: []).rewrite(xml.data, to: .binary)
            #expect(try PropertyListReader().read(binary.data).value == original, "\(row.path)")
            #expect(xml.format == .xml && binary.format == .binary)
        }
    }

    @Test(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
    func renamingEveryClassOfEveryCorpusArchiveKeepsItsGraph() throws {
        for row in ArchiveCorpus.rows where row.archive && row.invalid == "no" {
            let data = try ArchiveCorpus.data(row.path)
            let original = try KeyedArchive(data: data)
            let names = Set(original.decodedObjects.compactMap { $0.archivedClass?.name })
            let renamer = KeyedArchiveClassRenamer(renames: try names.sorted().enumerated().map { i, name in
                try KeyedArchiveClassRenamer.Rename(old: name, new: "Renamed.Class\(i)")
            })
            let result = try renamer.rewrite(data)
            #expect(result.report.matched.count == names.count, "\(row.path)")
            let rewritten = try KeyedArchive(data: result.data)
            #expect(original.isEquivalent(to: rewritten, renamingClasses: renamer.renamed), "\(row.path)")
            #expect(rewritten.top.map(\.key) == original.top.map(\.key))
        }
    }

    @Test func somethingThatIsNotAKeyedArchiveIsRefused() throws {
        let plain = BinaryPropertyListWriter().write(["a": 1])
        #expect(throws: KeyedArchiveError.self) { _ = try KeyedArchiveClassRenamer(renames: []).rewrite(plain) }
        #expect(throws: KeyedArchiveError.self) { _ = try KeyedArchiveClassRenamer(renames: []).rewrite(Data("not a plist".utf8)) }
    }

    @Test func aClassReferenceThatLeadsNowhereIsRefusedWithTheObject() throws {
        var objects: [PropertyListValue] = ["$null"]
        objects.append(.dictionary(PropertyListDictionary([(.string("$class"), .uid(7))])))  // #1: $class past $objects
        let plist: PropertyListValue = .dictionary(PropertyListDictionary([
            (.string("$archiver"), "NSKeyedArchiver"), (.string("$version"), 100_000),
            (.string("$top"), .dictionary(PropertyListDictionary([(.string("root"), .uid(1))]))), (.string("$objects"), .array(objects)),
        ]))
        do {
            _ = try KeyedArchiveClassRenamer(renames: []).rewrite(BinaryPropertyListWriter().write(plist))
            Issue.record("renamed an archive whose $class leads nowhere")
        } catch {
            #expect(error.code == .malformed)
            #expect(error.objectUID == 1)
        }
    }

    @Test(arguments: ["A=", "A=1B", "A=B C", "A=B..C", "=B", "A"])
    func aRenameThatCannotBeDoneIsRefusedBeforeAnythingIsRead(text: String) {
        #expect(throws: KeyedArchiveError.self) { _ = try KeyedArchiveClassRenamer.Rename(text) }
    }
}
