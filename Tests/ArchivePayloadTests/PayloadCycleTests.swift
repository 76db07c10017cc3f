import Foundation
import Testing
@testable import ArchivePayload
@testable import KeyedArchive
import PropertyList

/// `PayloadOptions.breaksCycles`: an object that refers back to one it is inside becomes
/// `{"$ref": "#/pointer"}` to where that one is written (a JSON Reference whose fragment is an
/// RFC 6901 JSON Pointer), in every writer: the mapped payload, the JSON written as the archive is
/// walked, and the JSON written from the object table.
enum PayloadCycles {
    /// Every reference object in `value`: where it is and the tokens of the pointer it holds.
    static func references(in value: PropertyListValue, at place: [String] = []) -> [(at: [String], target: [String])] {
        switch value {
        case .dictionary(let d):
            if d.count == 1, case .string(let fragment)? = d[PayloadReference.key], let target = tokens(fragment) {
                return [(place, target)]
            }
            return zip(d.keys, d.values).flatMap { key, v in references(in: v, at: place + [key.stringValue ?? "?"]) }
        case .array(let a):
            return a.enumerated().flatMap { i, v in references(in: v, at: place + [String(i)]) }
        default:
            return []
        }
    }

    /// The reference tokens of a `#/…` fragment: percent-decoded, then `~1` and `~0` undone.
    static func tokens(_ fragment: String) -> [String]? {
        guard fragment.hasPrefix("#"), let decoded = String(fragment.dropFirst()).removingPercentEncoding else { return nil }
        guard !decoded.isEmpty else { return [] }
        guard decoded.hasPrefix("/") else { return nil }
        return decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The value a pointer's tokens lead to.
    static func resolve(_ tokens: [String], in root: PropertyListValue) -> PropertyListValue? {
        var current = root
        for t in tokens {
            switch current {
            case .dictionary(let d): guard let next = d[t] else { return nil }; current = next
            case .array(let a): guard let i = Int(t), a.indices.contains(i) else { return nil }; current = a[i]
            default: return nil
            }
        }
        return current
    }

    /// What must hold of every reference: it points at a container that holds it (an ancestor of
    /// its place), never at itself or elsewhere.
    static func brokenReferences(in payload: PropertyListValue) -> [String] {
        references(in: payload).compactMap { ref in
            guard ref.target.count < ref.at.count, Array(ref.at.prefix(ref.target.count)) == ref.target,
                  let target = resolve(ref.target, in: payload), target.isCollection else {
                return "\(ref.at) -> \(ref.target)"
            }
            return nil
        }
    }

    static let breaking = PayloadOptions(breaksCycles: true)

    static func payload(_ archive: KeyedArchive, _ options: PayloadOptions = breaking) throws -> PropertyListValue {
        try PayloadMapper(options: options).payload(of: archive)
    }

    /// The JSON of every writer for `archive`, which must all be the same bytes: mapped then
    /// written, streamed from the decoded archive, and (when it takes the archive) from the table.
    static func json(_ archive: KeyedArchive) throws -> String {
        let mapper = PayloadMapper(options: breaking)
        let written = try JSONPropertyListWriter().write(try mapper.payload(of: archive))
        let streamed = try mapper.json(of: archive)
        #expect(streamed == written)
        let bytes = try KeyedArchiveWriter().write(archive)
        if let table = KeyedArchiveObjectTable(data: bytes), let fromTable = mapper.json(of: table) {
            #expect(fromTable == written)
        }
        #expect(try mapper.json(of: try KeyedArchive(data: bytes)) == written)
        return String(decoding: written, as: UTF8.self)
    }

    static func dictionary(_ b: inout KeyedArchiveBuilder, _ reserved: ArchivedValue, _ entries: [(String, ArchivedValue)]) {
        let keys = entries.map { b.string($0.0) }
        b.define(reserved, className: "NSDictionary", fields: [ArchivedField(key: "NS.keys", value: .array(keys)),
                                                              ArchivedField(key: "NS.objects", value: .array(entries.map(\.1)))])
    }
}

@Suite struct PayloadCycleTests {
    @Test func withoutTheOptionACycleIsStillRefused() throws {
        let archive = try Fixture.archive("cycle-self-reference.bplist")
        #expect { try PayloadCycles.payload(archive, PayloadOptions()) } throws: { ($0 as? PayloadError)?.code == .cycle }
        #expect { try PayloadMapper().json(of: archive) } throws: { ($0 as? PayloadError)?.code == .cycle }
    }

    @Test func theFixturesCyclesBecomeReferencesToTheObjectsTheyLoopBackTo() throws {
        // MyApp.Node whose next is itself; a note whose owner's note is the note.
        let node = try Fixture.archive("cycle-self-reference.bplist")
        #expect(try PayloadCycles.json(node) == ##"{"name":"head","next":{"$ref":"#"}}"##)
        let note = try PayloadCycles.payload(try Fixture.archive("note-with-attachments.bplist"))
        #expect(note["owner"]?["note"] == PayloadReference.object(to: []))
        // The attachment the note shares (pinned, and in attachments) is no cycle: in full twice.
        #expect(note["pinned"] == ["fileName": "list.txt"])
        #expect(note["attachments"]?.arrayValue?.last == ["fileName": "list.txt"])
        #expect(PayloadCycles.brokenReferences(in: note).isEmpty)
        #expect(PayloadCycles.references(in: note).count == 1)
        // As property lists, the same dictionary.
        var plist = PayloadCycles.breaking
        plist.target = .propertyList
        let asPlist = try PayloadCycles.payload(node, plist)
        #expect(asPlist == ["name": "head", "next": ["$ref": "#"]])
        #expect(try PropertyListReader().read(BinaryPropertyListWriter().write(asPlist)).value == asPlist)
        #expect(try PropertyListReader().read(XMLPropertyListWriter().write(asPlist)).value == asPlist)
    }

    @Test(.enabled(if: RoundTripInputs.corpus != nil, "../shared/corpus is absent"))
    func theCorpusArchivesWithCyclesBecomePayloadsWhoseReferencesPointAtAncestors() throws {
        let corpus = try #require(RoundTripInputs.corpus)
        let index = try String(contentsOf: corpus.appendingPathComponent("INDEX.tsv"), encoding: .utf8)
        var rows = index.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = rows.removeFirst()
        let path = try #require(header.firstIndex(of: "path"))
        let notes = try #require(header.firstIndex(of: "notes"))
        let listed = rows.filter { $0.count > max(path, notes) && $0[notes].contains("cycle") }
        var checked = 0, cyclic = 0
        for row in listed {
            let archive = try KeyedArchive(data: try Data(contentsOf: corpus.appendingPathComponent(row[path])))
            let payload = try PayloadCycles.payload(archive)
            #expect(PayloadCycles.brokenReferences(in: payload).isEmpty, "\(row[path])")
            _ = try PayloadCycles.json(archive)
            if let refused = try? PayloadCycles.payload(archive, PayloadOptions()) {
                // Listed for a recursion that is no cycle (bpylist2's recursive_archive: a Foo
                // holding another Foo): the same payload either way.
                #expect(refused == payload, "\(row[path])")
            } else {
                #expect(!PayloadCycles.references(in: payload).isEmpty, "\(row[path])")
                cyclic += 1
            }
            checked += 1
        }
        #expect(checked == listed.count)
        #expect(cyclic >= 1)
        // bpylist2's circular archive: crap.Foo whose recursive field is itself.
        if let circular = listed.first(where: { $0[path].hasSuffix("circular_archive.plist") }) {
            let payload = try PayloadCycles.payload(try KeyedArchive(data: try Data(contentsOf: corpus.appendingPathComponent(circular[path]))))
            #expect(payload["recursive"] == PayloadReference.object(to: []))
            #expect(payload["title"] == "hello")
        }
    }

    @Test func aCycleThroughADictionaryPointsAtTheDictionaryByItsKeys() throws {
        var b = KeyedArchiveBuilder()
        let root = b.reserve(), settings = b.reserve()
        PayloadCycles.dictionary(&b, root, [("settings", settings)])
        PayloadCycles.dictionary(&b, settings, [("parent", root), ("self", settings), ("name", b.string("x"))])
        let json = try PayloadCycles.json(b.archive(root: root))
        #expect(json == ##"{"settings":{"parent":{"$ref":"#"},"self":{"$ref":"#\/settings"},"name":"x"}}"##)
    }

    @Test func aCycleThroughAnArrayPointsAtTheArrayAndItsElementsByIndex() throws {
        var b = KeyedArchiveBuilder()
        let root = b.reserve(), items = b.reserve()
        let first = b.object("Item", fields: [ArchivedField(key: "name", value: b.string("a"))])
        let second = b.object("Item", fields: [ArchivedField(key: "name", value: b.string("b")), ArchivedField(key: "owner", value: root),
                                               ArchivedField(key: "siblings", value: items)])
        b.define(items, className: "NSArray", fields: [ArchivedField(key: "NS.objects", value: .array([first, second]))])
        b.define(root, className: "List", fields: [ArchivedField(key: "items", value: items)])
        let json = try PayloadCycles.json(b.archive(root: root))
        #expect(json == ##"{"items":[{"name":"a"},{"name":"b","owner":{"$ref":"#"},"siblings":{"$ref":"#\/items"}}]}"##)
    }

    @Test func anObjectSharedWithoutACycleIsWrittenInFullAtEachPlace() throws {
        var b = KeyedArchiveBuilder()
        let shared = b.object("Tag", fields: [ArchivedField(key: "name", value: b.string("shared"))])
        let list = b.array([shared, shared])
        let root = b.object("Holder", fields: [ArchivedField(key: "first", value: shared), ArchivedField(key: "second", value: shared),
                                                ArchivedField(key: "list", value: list), ArchivedField(key: "again", value: list)])
        let archive = b.archive(root: root)
        let payload = try PayloadCycles.payload(archive)
        #expect(PayloadCycles.references(in: payload).isEmpty)
        #expect(payload == (try PayloadCycles.payload(archive, PayloadOptions())))
        #expect(try PayloadCycles.json(archive)
                == ##"{"first":{"name":"shared"},"second":{"name":"shared"},"list":[{"name":"shared"},{"name":"shared"}],"again":[{"name":"shared"},{"name":"shared"}]}"##)
    }

    @Test func keysAreEscapedAsJSONPointerTokensAndAsURIFragmentCharacters() throws {
        var b = KeyedArchiveBuilder()
        let root = b.reserve(), inner = b.reserve()
        PayloadCycles.dictionary(&b, root, [("a/b~c d é", inner)])
        b.define(inner, className: "Node", fields: [ArchivedField(key: "back", value: inner)])
        let payload = try PayloadCycles.payload(b.archive(root: root))
        #expect(payload["a/b~c d é"]?["back"] == ["$ref": "#/a~1b~0c%20d%20%C3%A9"])
        #expect(PayloadCycles.brokenReferences(in: payload).isEmpty)
    }

    @Test func aDictionaryWithKeysThatAreNoStringsIsPointedIntoInTheShapeCodableGivesIt() throws {
        // Integer keys are written as their decimal strings; other keys make a flat
        // [key, value, …] array, where value i is element 2i + 1.
        var b = KeyedArchiveBuilder()
        let numbered = b.reserve(), flat = b.reserve()
        b.define(numbered, className: "NSDictionary", fields: [
            ArchivedField(key: "NS.keys", value: .array([b.number(.integer(PropertyListInteger(7)))])),
            ArchivedField(key: "NS.objects", value: .array([b.object("Node", fields: [ArchivedField(key: "up", value: numbered)])])),
        ])
        let loop = b.reserve()
        b.define(loop, className: "Node", fields: [ArchivedField(key: "up", value: loop)])
        b.define(flat, className: "NSDictionary", fields: [
            ArchivedField(key: "NS.keys", value: .array([b.number(.real(1.5)), b.number(.real(2.5))])),
            ArchivedField(key: "NS.objects", value: .array([b.string("one"), loop])),
        ])
        let root = b.array([numbered, flat])
        let json = try PayloadCycles.json(b.archive(root: root))
        #expect(json == ##"[{"7":{"up":{"$ref":"#\/0"}}},[1.5,"one",2.5,{"up":{"$ref":"#\/1\/3"}}]]"##)
    }

    @Test func aSelectedPartPointsWithinItselfAndMayNotPointOutside() throws {
        var b = KeyedArchiveBuilder()
        let root = b.reserve(), box = b.reserve()
        PayloadCycles.dictionary(&b, root, [("box", box), ("up", b.object("Up", fields: [ArchivedField(key: "to", value: root)]))])
        b.define(box, className: "Box", fields: [ArchivedField(key: "me", value: box), ArchivedField(key: "list", value: b.array([box]))])
        let archive = b.archive(root: root)
        let mapper = PayloadMapper(options: PayloadCycles.breaking)
        #expect(try mapper.payload(of: archive, at: PayloadPath(".box")) == ["me": ["$ref": "#"], "list": [["$ref": "#"]]])
        // The element is a reference to the box, which is outside the element.
        #expect(throws: PayloadError.self) { try mapper.payload(of: archive, at: PayloadPath(".box.list[0]")) }
        #expect(try mapper.payload(of: archive, at: PayloadPath(".nothing")) == nil)
        #expect { try mapper.payload(of: archive, at: PayloadPath(".up")) } throws: {
            ($0 as? PayloadError)?.code == .cycle && "\($0)".contains("outside it")
        }
        // The whole payload, selected as `.`, is the payload.
        #expect(try mapper.payload(of: archive, at: PayloadPath(".")) == (try mapper.payload(of: archive)))
    }

    @Test func aCycleInsideANestedArchiveIsPointedAtWhereEachCopyIsWritten() throws {
        var inner = KeyedArchiveBuilder()
        let node = inner.reserve()
        inner.define(node, className: "Node", fields: [ArchivedField(key: "name", value: inner.string("n")), ArchivedField(key: "next", value: node)])
        let blob = try KeyedArchiveWriter().write(inner.archive(root: node))
        var b = KeyedArchiveBuilder()
        let data = b.data(blob)
        let root = b.object("Holder", fields: [ArchivedField(key: "a", value: data), ArchivedField(key: "b", value: data)])
        let archive = b.archive(root: root)
        var options = PayloadCycles.breaking
        options.expandsNestedPayloads = true
        let payload = try PayloadMapper(options: options).payload(of: archive)
        #expect(payload == ["a": ["name": "n", "next": ["$ref": "#/a"]], "b": ["name": "n", "next": ["$ref": "#/b"]]])
        #expect(try PayloadMapper(options: options).json(of: archive) == (try JSONPropertyListWriter().write(payload)))
    }
}
