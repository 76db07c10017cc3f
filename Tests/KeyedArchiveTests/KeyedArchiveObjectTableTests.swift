import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// `inspect --format json` writes a large archive from its object table, without decoding its
/// objects (`KeyedArchiveJSONExporter.write(_:chunkSize:to:)` of a `KeyedArchiveObjectTable`); it
/// must give the bytes the decoded archive gives, or take nothing and leave the archive to it.
enum ObjectTableReference {
    /// The compact exporters the table writes for.
    static let exporters: [(String, KeyedArchiveJSONExporter)] = [
        ("compact", KeyedArchiveJSONExporter(prettyPrinted: false, omitsDefaultMembers: true)),
        ("compact, pretty", KeyedArchiveJSONExporter(prettyPrinted: true, omitsDefaultMembers: true)),
        ("compact, expanding", KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: true), prettyPrinted: false, omitsDefaultMembers: true)),
    ]

    /// Whether the table took the archive (for every exporter alike), and the exporters whose
    /// bytes from the table, whole or in pieces, differ from the decoded archive's.
    static func compare(_ data: Data, options: KeyedArchiveReadOptions = .default) throws -> (taken: Bool, differences: [String]) {
        guard let table = KeyedArchiveObjectTable(data: data, options: options) else {
            // The table reads what the decoder reads, and no more.
            let decodes = (try? KeyedArchive(data: data, options: options)) != nil
            #expect(!decodes || !data.starts(with: Array("bplist00".utf8)) || KeyedArchiveClassIndex(data: data, options: options) == nil,
                    "the table refused an archive the class index reads")
            return (false, [])
        }
        let archive = try KeyedArchive(data: data, options: options)
        #expect(table.index.objectCount == archive.decodedObjects.count)
        #expect(table.top == archive.top && table.root == archive.root)
        var taken: Bool?
        var differences: [String] = []
        for (name, exporter) in exporters {
            for chunkSize in [1 << 20, 7] {
                var written = Data()
                let took = try exporter.write(table, chunkSize: chunkSize) { written.append(contentsOf: $0) }
                #expect(taken == nil || taken == took, "\(name): the table took the archive for one exporter and not another")
                taken = took
                if !took {
                    #expect(written.isEmpty, "\(name): the table wrote before giving up")
                } else if written != (try exporter.write(archive)) {
                    differences.append("\(name) in pieces of \(chunkSize)")
                }
            }
        }
        return (taken ?? false, differences)
    }

    /// An archive of records as large stores and caches hold them: NSDictionary records of a
    /// name, an NSUUID, an NSDate, an NSURL, NSData, an NSArray of tags and numbers, the keys
    /// and tag words shared, as NSKeyedArchiver shares them; written in Foundation's layout.
    /// With `nullsAndEmptyCollections`, each record's tags end with an NSNull and a nil element
    /// (`$null`, UID 0), every seventh record's tags are empty and every sixth has no URL (a nil
    /// value); an empty NSArray, NSDictionary and NSSet and an NSSet of two follow the records.
    static func records(_ count: Int, nullsAndEmptyCollections: Bool = true) throws -> Data {
        var b = KeyedArchiveBuilder()
        let keys = ["name", "id", "created", "url", "digest", "tags", "count", "score"].map { b.string($0) }
        let words = ["red", "green", "blue"].map { b.string($0) }
        var items: [ArchivedValue] = []
        for i in 0..<count {
            var uuid = [UInt8](repeating: 0, count: 16)
            for k in 0..<16 { uuid[k] = UInt8(truncatingIfNeeded: i * 31 + k * 7) }
            let values: [ArchivedValue] = [
                b.string(i % 5 == 0 ? "récord \"\(i)\" / 😀" : "record \(i)"),
                b.uuid(UUID(uuid: (uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7],
                                   uuid[8], uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]))),
                b.date(Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(i) * 60.5)),
                nullsAndEmptyCollections && i % 6 == 0 ? .null : b.url("https://example.com/r/\(i)"),
                b.data(Data((0..<(i % 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) })),
                nullsAndEmptyCollections && i % 7 == 0 ? b.array([])
                    : b.array([words[i % 3], b.string("tag \(i)")] + (nullsAndEmptyCollections ? [b.null(), .null] : [])),
                b.number(.integer(PropertyListInteger(i * 977 - 5000))),
                b.number(i % 4 == 0 ? .real(Double(i)) : .real(Double(i) / 7)),
            ]
            items.append(b.dictionary(keys: keys, values: values, mutable: i % 2 == 0))
        }
        if nullsAndEmptyCollections {
            items.append(b.array([]))
            items.append(b.dictionary(keys: [], values: []))
            items.append(b.set([]))
            items.append(b.set([words[0], b.string("tag")]))
        }
        // The root is built before the archive is taken, so that the archive holds it.
        let root = b.array(items)
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    /// Whether a decoded archive holds an empty collection (an empty list field), an NSNull or
    /// a nil element (UID 0 in a list): the shapes the table once left to the decoder.
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

    /// Whether every decoded object is inline or of a class whose layout the table describes
    /// (`KeyedArchiveObjectTable.Content`), URLs without a base.
    static func holdsOnlyDescribedClasses(_ archive: KeyedArchive) -> Bool {
        let described: Set = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSDictionary", "NSMutableDictionary",
                              "NSNull", "NSDate", "NSURL", "NSUUID"]
        return archive.decodedObjects.allSatisfy { object in
            guard let archivedClass = object.archivedClass else { return true }
            if case .url(let base, _) = object.content, base != .null { return false }
            return described.contains(archivedClass.name)
        }
    }

    /// Empty collections and NSNull in the places archives hold them, for Foundation's archiver.
    static var foundationEmptiesAndNulls: NSArray {
        [NSArray(), NSDictionary(), NSNull(), NSSet(), NSMutableArray(), NSMutableDictionary(),
         ["a", NSNull(), NSArray(), NSDictionary()] as NSArray,
         ["empty": NSArray(), "none": NSNull(), "set": NSSet(array: [1, "x"]), "n": 2] as NSDictionary] as NSArray
    }
}

@Suite struct KeyedArchiveObjectTableTests {
    @Test func recordsOfTheCommonClassesAreWrittenFromTheTableWithTheDecodedArchivesBytes() throws {
        let (taken, differences) = try ObjectTableReference.compare(try ObjectTableReference.records(60, nullsAndEmptyCollections: false))
        #expect(taken)
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test func recordsWithNullsNilElementsAndEmptyCollectionsAreWrittenFromTheTableWithTheDecodedArchivesBytes() throws {
        let (taken, differences) = try ObjectTableReference.compare(try ObjectTableReference.records(60))
        #expect(taken)
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test func foundationsArchiveOfEmptyCollectionsAndNullsIsWrittenFromTheTableWithTheDecodedArchivesBytes() throws {
        // What NSKeyedArchiver (swift-corelibs-foundation, on this machine) writes for them: each
        // dictionary's keys (`$class`, `NS.objects`) as string objects of their own.
        let data = try NSKeyedArchiver.archivedData(withRootObject: ObjectTableReference.foundationEmptiesAndNulls, requiringSecureCoding: true)
        #expect(KeyedArchiveClassIndex(data: data) != nil)
        let (taken, differences) = try ObjectTableReference.compare(data)
        #expect(taken)
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test func everyFixtureIsWrittenFromTheTableWithTheDecodedArchivesBytesOrLeftToIt() throws {
        var taken = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: ArchiveFixtureTests.directory.path).sorted() {
            let data = try Data(contentsOf: ArchiveFixtureTests.directory.appendingPathComponent(name))
            let result = try ObjectTableReference.compare(data)
            if result.taken { taken += 1 }
            #expect(result.differences.isEmpty, "\(name): \(result.differences)")
        }
        // The legacy string array is all common classes; the others hold a URL with its base, a
        // UIColor, Swift classes or a box, which the decoder reads.
        #expect(taken >= 1)
    }

    @Test func anArchiveWithAClassTheTableDoesNotDescribeIsLeftToTheDecoder() throws {
        var b = KeyedArchiveBuilder()
        let root = b.array([b.string("a"), b.uiColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)])
        let data = try KeyedArchiveWriter().write(b.archive(root: root))
        let (taken, differences) = try ObjectTableReference.compare(data)
        #expect(!taken && differences.isEmpty)
    }

    @Test func aURLWithABaseIsLeftToTheDecoderWhichResolvesIt() throws {
        var b = KeyedArchiveBuilder()
        let root = b.url("item/1", base: b.url("https://example.com/"))
        let (taken, differences) = try ObjectTableReference.compare(try KeyedArchiveWriter().write(b.archive(root: root)))
        #expect(!taken && differences.isEmpty)
    }
}

@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct KeyedArchiveObjectTableCorpusTests {
    @Test func everyCorpusArchiveIsWrittenFromTheTableWithTheDecodedArchivesBytesOrLeftToIt() throws {
        var failures: [String] = []
        var taken = 0
        var tables = 0
        // Archives of the described classes that hold empty collections, NSNull or nil elements:
        // each must be taken.
        var withEmptiesOrNulls = 0
        var leftToTheDecoder: [String] = []
        for row in ArchiveCorpus.rows where row.archive {
            guard let data = try? ArchiveCorpus.data(row.path), data.count < 4_000_000 else { continue }
            if KeyedArchiveObjectTable(data: data) != nil { tables += 1 }
            let result = try ObjectTableReference.compare(data)
            if result.taken { taken += 1 }
            if !result.differences.isEmpty { failures.append("\(row.path): \(result.differences)") }
            if KeyedArchiveObjectTable(data: data) != nil, let archive = try? KeyedArchive(data: data),
               ObjectTableReference.holdsEmptiesOrNulls(archive), ObjectTableReference.holdsOnlyDescribedClasses(archive) {
                withEmptiesOrNulls += 1
                if !result.taken { leftToTheDecoder.append(row.path) }
            }
        }
        #expect(tables > 50)
        #expect(taken > 10, "\(taken) of \(tables) archives written from their table")
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(withEmptiesOrNulls > 0)
        #expect(leftToTheDecoder.isEmpty, "\(leftToTheDecoder.prefix(5)) of \(withEmptiesOrNulls)")
    }
}
