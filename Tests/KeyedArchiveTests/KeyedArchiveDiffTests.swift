import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// `diff` on keyed archives: graphs compared from the root by structure, not by UID.
@Suite struct KeyedArchiveDiffTests {
    /// A settings object holding items with colors, one color shared by two items, as an app's
    /// NSCoding model would archive it.
    static func settings(red: Double = 0.5, extraItem: Bool = false, sharedTint: Bool = true) -> KeyedArchive {
        var b = KeyedArchiveBuilder()
        let tint = b.uiColor(red: red, green: 0.25, blue: 0.125, alpha: 1)
        var items: [ArchivedValue] = []
        for i in 0..<(extraItem ? 5 : 4) {
            let color = i == 3 ? tint : (i == 1 && sharedTint ? tint : b.uiColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
            items.append(b.object("MyApp.Item", fields: [
                ArchivedField(key: "name", value: b.string("item \(i)")),
                ArchivedField(key: "tintColor", value: color),
            ]))
        }
        let root = b.object("MyApp.Settings", fields: [
            ArchivedField(key: "items", value: b.array(items)),
            ArchivedField(key: "title", value: b.string("Settings")),
        ])
        return b.archive(root: root)
    }

    static func lines(_ a: KeyedArchive, _ b: KeyedArchive) -> [String] {
        KeyedArchiveDiff().differences(from: a, to: b).map { "\($0.change.rawValue) \($0.path)" }
    }

    @Test func aChangeDeepInTheGraphIsNamedByItsPath() {
        #expect(Self.lines(Self.settings(), Self.settings()).isEmpty)
        // The tint is shared by items 1 and 3: the change shows once, where it is first met.
        #expect(Self.lines(Self.settings(), Self.settings(red: 0.75)) == ["changed root.items[1].tintColor.red"])
        #expect(Self.lines(Self.settings(), Self.settings(extraItem: true)) == ["added root.items[4]"])
    }

    @Test func archivesNumberedDifferentlyAreEqual() throws {
        let archive = Self.settings()
        let plist = KeyedArchiveWriter().plist(for: archive)
        let renumbered = try KeyedArchive(plist: Self.permutingUIDs(plist))
        #expect(Self.permutingUIDs(plist)["$objects"] != plist["$objects"])
        #expect(KeyedArchiveDiff().differences(from: try KeyedArchive(plist: plist), to: renumbered).isEmpty)
    }

    @Test func cyclesAndSharedObjectsEndWhereTheyClose() throws {
        func ring(_ names: [String]) -> KeyedArchive {
            var b = KeyedArchiveBuilder()
            let nodes = names.map { _ in b.reserve() }
            for (i, node) in nodes.enumerated() {
                b.define(node, className: "Node", fields: [
                    ArchivedField(key: "name", value: b.string(names[i])),
                    ArchivedField(key: "next", value: nodes[(i + 1) % nodes.count]),
                ])
            }
            return b.archive(root: nodes[0])
        }
        #expect(Self.lines(ring(["a", "b", "c"]), ring(["a", "b", "c"])).isEmpty)
        #expect(Self.lines(ring(["a", "b", "c"]), ring(["a", "x", "c"])) == ["changed root.next.name"])
        // A three-ring and a six-ring of the same names unroll to the same endless sequence:
        // equal, and the walk ends once every pair has been met.
        #expect(Self.lines(ring(["a", "b", "c"]), ring(["a", "b", "c", "a", "b", "c"])).isEmpty)
        #expect(Self.lines(ring(["a", "b", "c"]), ring(["a", "b", "c", "a", "b", "d"])) == ["changed root.next.next.next.next.next.name"])
    }

    @Test func anInlineValueAndTheSameValueAsAnObjectAreEqual() {
        var b1 = KeyedArchiveBuilder()
        let root1 = b1.object("Box", fields: [ArchivedField(key: "n", value: .inline(.integer(PropertyListInteger(5))))])
        var b2 = KeyedArchiveBuilder()
        let root2 = b2.object("Box", fields: [ArchivedField(key: "n", value: b2.number(.integer(PropertyListInteger(5))))])
        #expect(Self.lines(b1.archive(root: root1), b2.archive(root: root2)).isEmpty)
    }

    @Test func aDifferentClassIsATypeChange() {
        var b1 = KeyedArchiveBuilder()
        let r1 = b1.object("A", fields: [])
        var b2 = KeyedArchiveBuilder()
        let r2 = b2.object("B", fields: [])
        let differences = KeyedArchiveDiff().differences(from: b1.archive(root: r1), to: b2.archive(root: r2))
        #expect(differences.map(\.change) == [.typeChanged])
        #expect(differences.first?.old?.type == "A")
        #expect(differences.first?.new?.type == "B")
    }

    /// The same archive with its objects numbered in reverse ($null stays 0): what an archiver
    /// that numbers objects another way would write.
    static func permutingUIDs(_ plist: PropertyListValue) -> PropertyListValue {
        guard let objects = plist["$objects"]?.arrayValue, objects.count > 2 else { return plist }
        let n = objects.count
        func map(_ uid: UInt64) -> UInt64 { uid == 0 || uid >= UInt64(n) ? uid : UInt64(n) - uid }
        func renumber(_ value: PropertyListValue) -> PropertyListValue {
            switch value {
            case .uid(let u): return .uid(map(u))
            case .array(let a): return .array(a.map(renumber))
            case .set(let a): return .set(a.map(renumber))
            case .dictionary(let d): return .dictionary(PropertyListDictionary(keys: d.keys, values: d.values.map(renumber)))
            default: return value
            }
        }
        var permuted = [PropertyListValue](repeating: .null, count: n)
        for (uid, object) in objects.enumerated() { permuted[Int(map(UInt64(uid)))] = renumber(object) }
        var root = plist.dictionaryValue ?? PropertyListDictionary()
        root["$objects"] = .array(permuted)
        if let top = plist["$top"] { root["$top"] = renumber(top) }
        return .dictionary(root)
    }
}

/// Diff on the corpus's keyed archives.
@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct KeyedArchiveDiffCorpusTests {
    @Test func everyAppleArchiveEqualsOurRewrittenCopyAndARenumberedOne() throws {
        let rows = ArchiveCorpus.rows.filter { $0.archive && $0.invalid == "no" && $0.producer == "Apple" }
        #expect(rows.count > 50)
        var failures: [String] = []
        var renumbered = 0
        for row in rows {
            let original = try KeyedArchive(data: try ArchiveCorpus.data(row.path))
            // Our archiver's copy, written back from the typed tree (binary, Foundation's layout).
            let rewritten = try KeyedArchive(data: try KeyedArchiveWriter().write(original))
            if let d = KeyedArchiveDiff().differences(from: original, to: rewritten).first {
                failures.append("\(row.path): rewritten: \(d.change) at \(d.path)")
            }
            // The same objects under other UIDs.
            let plist = KeyedArchiveWriter().plist(for: original)
            let permuted = KeyedArchiveDiffTests.permutingUIDs(plist)
            if permuted["$objects"] != plist["$objects"] { renumbered += 1 }
            let other = try KeyedArchive(plist: permuted)
            if let d = KeyedArchiveDiff().differences(from: original, to: other).first {
                failures.append("\(row.path): renumbered: \(d.change) at \(d.path)")
            }
            if let d = KeyedArchiveDiff().differences(from: original, to: original).first {
                failures.append("\(row.path): itself: \(d.change) at \(d.path)")
            }
        }
        #expect(renumbered > 50, "archives whose UIDs the renumbering changed: \(renumbered)")
        #expect(failures.isEmpty, "\(failures)")
    }
}
