import Foundation
import Testing
@testable import ArchivePayload
@testable import KeyedArchive
import PropertyList

/// `unarchive --to json` writes the payload of a large archive from its object table, without
/// decoding its objects (`PayloadMapper.json(of:options:)` of a `KeyedArchiveObjectTable`); it
/// must give the bytes the decoded archive gives, or nothing, leaving the archive to it.
enum PayloadTableReference {
    /// Whether the table took the archive with the default options, and the options under
    /// which its bytes differ from the decoded archive's (or it took an archive that fails).
    static func compare(_ data: Data) throws -> (taken: Bool, differences: [String]) {
        guard let table = KeyedArchiveObjectTable(data: data) else { return (false, []) }
        let archive = try KeyedArchive(data: data)
        var taken = false
        var differences: [String] = []
        for (payloadName, payloadOptions) in PayloadJSONStream.payloadOptions {
            let mapper = PayloadMapper(options: payloadOptions)
            for (jsonName, jsonOptions) in PayloadJSONStream.jsonOptions {
                let fromTable = mapper.json(of: table, options: jsonOptions)
                // The same walk handed on in chunks of a few bytes: the same bytes, or nothing.
                var streamed = Data()
                let streamTaken = mapper.writeJSON(of: table, options: jsonOptions, chunkSize: 7) { streamed.append(contentsOf: $0) }
                if streamTaken != (fromTable != nil) || (streamTaken && streamed != fromTable) {
                    differences.append("\(payloadName), \(jsonName), in chunks")
                }
                guard let fromTable else { continue }
                if payloadName == "default", jsonName == "default" { taken = true }
                if fromTable != (try? mapper.json(of: archive, options: jsonOptions)) { differences.append("\(payloadName), \(jsonName)") }
            }
        }
        return (taken, differences)
    }
}

@Suite struct PayloadTableJSONStreamTests {
    @Test func recordsOfTheCommonClassesAreWrittenFromTheTableWithTheDecodedArchivesBytes() throws {
        let (taken, differences) = try PayloadTableReference.compare(try Self.records(nullsAndEmptyCollections: false))
        #expect(taken)
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test func recordsWithNullsNilElementsAndEmptyCollectionsAreWrittenFromTheTableWithTheDecodedArchivesBytes() throws {
        let (taken, differences) = try PayloadTableReference.compare(try Self.records(nullsAndEmptyCollections: true))
        #expect(taken)
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test func foundationsArchiveOfEmptyCollectionsAndNullsIsWrittenFromTheTableWithTheDecodedArchivesBytes() throws {
        let root = [NSArray(), NSDictionary(), NSNull(), NSSet(), NSMutableArray(), NSMutableDictionary(),
                    ["a", NSNull(), NSArray(), NSDictionary()] as NSArray,
                    ["empty": NSArray(), "none": NSNull(), "set": NSSet(array: [1, "x"]), "n": 2] as NSDictionary] as NSArray
        // What NSKeyedArchiver (swift-corelibs-foundation, on this machine) writes for them: each
        // dictionary's keys (`$class`, `NS.objects`) as string objects of their own.
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true)
        #expect(KeyedArchiveClassIndex(data: data) != nil)
        let (taken, differences) = try PayloadTableReference.compare(data)
        #expect(taken)
        #expect(differences.isEmpty, "\(differences)")
    }

    /// 30 records of the common classes; with `nullsAndEmptyCollections`, each record's array
    /// holds an NSNull and a nil element (`$null`, UID 0), every fourth record's array is empty
    /// and every fifth has no URL (a nil value); an empty NSArray, NSDictionary and NSSet and an
    /// NSSet of two follow the records.
    static func records(nullsAndEmptyCollections: Bool) throws -> Data {
        var b = KeyedArchiveBuilder()
        let keys = [b.string("id"), b.string("when"), b.string("tags"), b.string("link"), b.string("uuid")]
        var items: [ArchivedValue] = []
        for i in 0..<30 {
            items.append(b.dictionary(keys: keys, values: [
                b.number(i % 3 == 0 ? .real(Double(i) / 3) : .integer(PropertyListInteger(i))),
                b.date(Date(timeIntervalSinceReferenceDate: Double(i) * 1.5)),
                nullsAndEmptyCollections && i % 4 == 0 ? b.array([])
                    : b.array([b.string("a/b \"\(i)\" é😀")] + (nullsAndEmptyCollections ? [b.null(), .null] : []) + [b.data(Data([UInt8(i), 0xFF]))],
                              mutable: i % 2 == 0),
                nullsAndEmptyCollections && i % 5 == 0 ? .null : b.url("https://example.com/item/\(i)"),
                b.uuid(UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC\(String(format: "%02X", i))") ?? UUID()),
            ], mutable: i % 2 == 1))
        }
        if nullsAndEmptyCollections {
            items.append(b.array([]))
            items.append(b.dictionary(keys: [], values: []))
            items.append(b.set([]))
            items.append(b.set([keys[0], b.string("x")]))
        }
        // The root is built before the archive is taken, so that the archive holds it.
        let root = b.array(items)
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    @Test func aCycleANonStringKeyOrAURLWithABaseIsLeftToTheOrdinaryWalk() throws {
        // A dictionary that contains itself.
        var c = KeyedArchiveBuilder()
        let loop = c.reserve()
        let key = c.string("self")
        c.define(loop, className: "NSDictionary", fields: [ArchivedField(key: "NS.keys", value: .array([key])),
                                                          ArchivedField(key: "NS.objects", value: .array([loop]))])
        let cyclic = try KeyedArchiveWriter().write(c.archive(root: loop))
        #expect(try PayloadTableReference.compare(cyclic) == (false, []))
        // Integer keys, which Codable writes as strings.
        var d = KeyedArchiveBuilder()
        let numbered = d.dictionary(keys: [d.number(.integer(PropertyListInteger(1)))], values: [d.string("one")])
        #expect(try PayloadTableReference.compare(try KeyedArchiveWriter().write(d.archive(root: numbered))) == (false, []))
        // A relative URL with its base.
        var u = KeyedArchiveBuilder()
        let url = u.url("item/1", base: u.url("https://example.com/"))
        #expect(try PayloadTableReference.compare(try KeyedArchiveWriter().write(u.archive(root: url))) == (false, []))
    }

    @Test func theUnarchiverHandsTheTablesJSONOnInChunksAndStartsAgainWhenTheWalkGivesUpPartWay() throws {
        // Records the table walk writes, and after them a URL with its base, which it leaves
        // to the decoder once some chunks were handed on.
        func records(endingWithURL: Bool) throws -> Data {
            var b = KeyedArchiveBuilder()
            let keys = [b.string("name"), b.string("n")]
            var items: [ArchivedValue] = []
            for i in 0..<40 { items.append(b.dictionary(keys: keys, values: [b.string("item \(i)"), b.number(.integer(PropertyListInteger(i)))])) }
            if endingWithURL { items.append(b.url("item/1", base: b.url("https://example.com/"))) }
            // The root made before `archive` reads the builder.
            let root = b.array(items)
            return try KeyedArchiveWriter().write(b.archive(root: root))
        }
        let unarchiver = ArchiveUnarchiver(allowList: nil)
        for walked in [true, false] {
            let data = try records(endingWithURL: !walked)
            let whole = try unarchiver.json(of: data).value
            #expect(whole.count > 40 * 16)
            var handedOn = Data()
            var restarts = 0
            let streamed = try unarchiver.json(of: data, chunkSize: 16, drain: { handedOn.append(contentsOf: $0) },
                                               restart: { handedOn.removeAll(); restarts += 1 })
            if walked {
                #expect(streamed.value == nil && streamed.objectTable != nil)
                #expect(handedOn == whole)
                #expect(restarts == 0)
            } else {
                #expect(streamed.value == whole)
                #expect(handedOn.isEmpty)
                #expect(restarts == 1)
            }
        }
    }

    @Test func everyFixtureIsWrittenFromTheTableWithTheDecodedArchivesBytesOrLeftToIt() throws {
        var taken = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixture.directory.path).sorted() {
            let result = try PayloadTableReference.compare(try Fixture.data(name))
            if result.taken { taken += 1 }
            #expect(result.differences.isEmpty, "\(name): \(result.differences)")
        }
        // The legacy string array is all common classes; the others hold a URL with its base, a
        // UIColor, Swift classes or a box, which the decoder reads.
        #expect(taken >= 1)
    }
}

@Suite(.enabled(if: ClassIndexCorpus.root != nil, "../shared/corpus is absent"))
struct PayloadTableJSONStreamCorpusTests {
    @Test func everyCorpusArchiveIsWrittenFromTheTableWithTheDecodedArchivesBytesOrLeftToIt() throws {
        let root = try #require(ClassIndexCorpus.root)
        var failures: [String] = []
        var taken = 0
        // Archives that hold NSNull, nil elements or empty collections, and whose root the table
        // walk wrote with them left out: the table must take them with them too.
        var withEmptiesOrNulls = 0
        var leftToTheDecoder: [String] = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for url in files where !url.hasDirectoryPath && !url.path.contains("/stores/") {
            guard let data = try? Data(contentsOf: url), data.count < 4_000_000, let archive = try? KeyedArchive(data: data) else { continue }
            let result = try PayloadTableReference.compare(data)
            if result.taken { taken += 1 }
            if !result.differences.isEmpty { failures.append("\(url.lastPathComponent): \(result.differences)") }
            if KeyedArchiveObjectTable(data: data) != nil, archive.root?.uid != nil, Self.holdsEmptiesOrNulls(archive), Self.holdsOnlyListsNullsAndScalars(archive) {
                withEmptiesOrNulls += 1
                if !result.taken { leftToTheDecoder.append(url.lastPathComponent) }
            }
        }
        #expect(taken > 10, "\(taken) archives written from their table")
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(withEmptiesOrNulls > 0)
        #expect(leftToTheDecoder.isEmpty, "\(leftToTheDecoder.prefix(5)) of \(withEmptiesOrNulls)")
    }

    /// Whether a decoded archive holds an NSNull, a nil element (UID 0 in a list) or an empty
    /// list (an empty collection's field).
    static func holdsEmptiesOrNulls(_ archive: KeyedArchive) -> Bool {
        archive.decodedObjects.contains { object in
            if case .null = object.content { return true }
            return object.fields.contains { field in
                switch field.value {
                case .inline(.array(let elements)): elements.isEmpty
                case .array(let elements): elements.contains(.null)
                default: false
                }
            }
        }
    }

    /// Whether every decoded object is inline, an NSNull, or an array, set or dictionary whose
    /// keys are strings: what the table walk writes of any root.
    static func holdsOnlyListsNullsAndScalars(_ archive: KeyedArchive) -> Bool {
        archive.decodedObjects.allSatisfy { object in
            switch object.content {
            case .string, .number, .date, .null, .array, .set: return true
            case .data(let d): return object.archivedClass == nil && NestedPayload.identify(d) == nil
            case .dictionary(let keys, _): return keys.allSatisfy { if case .string? = archive.object($0)?.content { true } else { false } }
            default: return false
            }
        }
    }
}
