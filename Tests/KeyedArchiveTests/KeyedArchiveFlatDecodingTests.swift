import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// `KeyedArchive(data:)` reads binary archives with `$objects` kept flat; every other input,
/// and any binary one the flat scan does not handle, goes through a `PropertyListValue` tree.
/// Both ways must give the same archive, or the same error.
enum FlatDecoding {
    /// The archive read through the property-list tree, as `KeyedArchive(data:)` falls back to.
    static func viaTree(_ data: Data, options: KeyedArchiveReadOptions) throws(KeyedArchiveError) -> KeyedArchive {
        let value: PropertyListValue
        do throws(PropertyListError) {
            value = try PropertyListReader(options: options.propertyList).read(data).value
        } catch {
            throw KeyedArchiveError(.propertyList, error.description, underlying: error)
        }
        return try KeyedArchive(plist: value, options: options)
    }

    /// What differs between the two ways of reading `data`, or nil when nothing does; and
    /// between the decoded archive and its class index, when the index reads it.
    static func difference(_ data: Data, options: KeyedArchiveReadOptions = .default) -> String? {
        let direct = Result { () throws(KeyedArchiveError) in try KeyedArchive(data: data, options: options) }
        if let index = KeyedArchiveClassIndex(data: data, options: options) {
            guard case .success(let archive) = direct else { return "the class index reads an archive that does not decode" }
            if let difference = classIndexDifference(index, archive) { return difference }
        }
        let tree = Result { () throws(KeyedArchiveError) in try viaTree(data, options: options) }
        switch (direct, tree) {
        case (.success(let a), .success(let b)):
            if a.objects != b.objects { return "objects differ" }
            if a.top != b.top || a.root != b.root || a.archiver != b.archiver || a.version != b.version { return "top differs" }
            if a.plist != b.plist { return "plist differs" }
            if a != b || a.hashValue != b.hashValue { return "archives differ" }
            return nil
        case (.failure(let e), .failure(let f)):
            return e == f ? nil : "errors differ: \(e) / \(f)"
        case (.success, .failure(let f)):
            return "only the tree fails: \(f)"
        case (.failure(let e), .success):
            return "only the direct read fails: \(e)"
        }
    }

    /// What the class index says differently from the decoded archive, or nil.
    static func classIndexDifference(_ index: KeyedArchiveClassIndex, _ archive: KeyedArchive) -> String? {
        if index.objectCount != archive.decodedObjects.count { return "the class index counts \(index.objectCount) objects" }
        if index.classCounts.map(\.name) != archive.classCounts.map(\.name)
            || index.classCounts.map(\.count) != archive.classCounts.map(\.count) { return "class counts differ" }
        var seen = 0
        var mismatch: String?
        index.forEachObject { uid, archivedClass, inlineName in
            seen += 1
            guard mismatch == nil else { return }
            guard uid < archive.objects.count, let object = archive.objects[uid] else {
                mismatch = "#\(uid) is in the class index only"
                return
            }
            if let archivedClass {
                if object.archivedClass != archivedClass { mismatch = "#\(uid) has another class" }
            } else if object.archivedClass != nil || object.className != inlineName {
                mismatch = "#\(uid) is inline in the class index only"
            }
        }
        return mismatch ?? (seen == archive.decodedObjects.count ? nil : "objects differ")
    }

    /// A small archive of records, as the benchmark builds large ones.
    static func records(_ count: Int) throws -> Data {
        var b = KeyedArchiveBuilder()
        let keyNames = ["id", "name", "score", "created", "tags"].map { b.string($0) }
        let tagWords = ["red", "green", "blue", "cyan", "magenta"].map { b.string($0) }
        var items: [ArchivedValue] = []
        for i in 0..<count {
            let values: [ArchivedValue] = [
                b.number(.integer(PropertyListInteger(i))),
                b.string("record \(i)"),
                b.number(.real(Double(i % 10) / 7)),
                b.date(Date(timeIntervalSinceReferenceDate: Double(i) * 60.5)),
                b.array([tagWords[i % 5], tagWords[(i + 2) % 5]]),
            ]
            items.append(b.dictionary(keys: keyNames, values: values))
        }
        items.append(b.url("a/b", base: b.url("https://example.com/")))
        items.append(b.uiColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1))
        items.append(b.data(Data("{\"a\": 1}".utf8)))
        let root = b.array(items)
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    /// A binary plist assembled object by object, for layouts no writer produces.
    enum Object {
        case string(String)
        case int(UInt32)
        case real(Double)
        case uid(UInt8)
        case array([UInt8])
        case dictionary(keys: [UInt8], values: [UInt8])

        var bytes: [UInt8] {
            switch self {
            case .string(let s):
                // 15 bytes and more: the marker's count is 0xF and an integer object follows.
                s.utf8.count < 15 ? [0x50 | UInt8(s.utf8.count)] + Array(s.utf8) : [0x5F, 0x10, UInt8(s.utf8.count)] + Array(s.utf8)
            case .int(let v): [0x12, UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            case .real(let r): [0x23] + withUnsafeBytes(of: r.bitPattern.bigEndian) { Array($0) }
            case .uid(let u): [0x80, u]
            case .array(let refs): [0xA0 | UInt8(refs.count)] + refs
            case .dictionary(let keys, let values): [0xD0 | UInt8(keys.count)] + keys + values
            }
        }
    }

    /// `objects` as a bplist00 file with one-byte offsets and references, object 0 at the top.
    static func assemble(_ objects: [Object]) -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [UInt16] = []
        for object in objects {
            offsets.append(UInt16(out.count))
            out += object.bytes
        }
        let table = out.count
        for offset in offsets { out += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        out += [0, 0, 0, 0, 0, 0]                                       // unused
        out += [2, 1]                                                   // offset size 2, reference size 1
        out += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]              // object count
        out += [0, 0, 0, 0, 0, 0, 0, 0]                                 // top object 0
        out += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)] // offset table
        return Data(out)
    }

    /// Objects 0 to 9 of a hand-built archive: the top-level dictionary, its four keys, the
    /// archiver's name and version, `$objects` (objects 9 to 12: `$null` and UIDs 1 to 3), `$top`
    /// (key 13, value 14: `root` is UID 1, both for the caller to add) and `$null`. The archive's
    /// own objects follow from 10.
    static let archiveHead: [Object] = [
        .dictionary(keys: [1, 2, 3, 4], values: [5, 6, 7, 8]),   // 0: the top level
        .string("$archiver"), .string("$version"), .string("$objects"), .string("$top"),  // 1-4
        .string("NSKeyedArchiver"),                              // 5
        .int(100_000),                                           // 6
        .array([9, 10, 11, 12]),                                 // 7: $objects
        .dictionary(keys: [13], values: [14]),                   // 8: $top = {root: UID 1}
        .string("$null"),                                        // 9: $objects[0]
    ]

    /// An archive whose two arrays share one `NS.objects` array object (of a UID and a real):
    /// the flat scan reads it once and counts it twice, as the tree's memoized read does.
    static let sharedArray = assemble(FlatDecoding.archiveHead + [
        .dictionary(keys: [15, 16], values: [17, 18]),           // 10: UID 1, NS.objects = 17
        .dictionary(keys: [15, 16], values: [17, 18]),           // 11: UID 2, the same NS.objects
        .dictionary(keys: [19, 20], values: [21, 22]),           // 12: UID 3, NSArray's class
        .string("root"),                                         // 13
        .uid(1),                                                 // 14
        .string("NS.objects"), .string("$class"),                // 15, 16
        .array([23, 24]),                                        // 17: [UID 2, 1.5], shared
        .uid(3),                                                 // 18
        .string("$classname"), .string("$classes"),              // 19, 20
        .string("NSArray"),                                      // 21
        .array([21, 25]),                                        // 22: ["NSArray", "NSObject"]
        .uid(2),                                                 // 23
        .real(1.5),                                              // 24
        .string("NSObject"),                                     // 25
    ])
}

@Suite struct KeyedArchiveFlatDecodingTests {
    static let fixtures = ["NSAttributedString.archive", "NSKeyedUnarchiver-ComplexTest.plist", "NSKeyedUnarchiver-URLTest.plist",
                           "rust-plist-binary.plist", "rust-plist-utf16.bplist", "rust-plist-xml.plist"]

    @Test(arguments: fixtures)
    func fixturesReadTheSameEitherWay(_ name: String) throws {
        let data = try TestArchive.fixture(name)
        #expect(FlatDecoding.difference(data) == nil)
    }

    @Test func archiveFixturesReadTheSameEitherWay() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/archives")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            #expect(FlatDecoding.difference(data) == nil, "\(name)")
        }
    }

    @Test func aBinaryArchiveIsReadFlatAndItsPlistIsTheTree() throws {
        let data = try FlatDecoding.records(50)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data) != nil)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data, keepingValues: false) != nil)
        #expect(KeyedArchiveClassIndex(data: data) != nil)
        let archive = try KeyedArchive(data: data)
        #expect(archive.plist == (try PropertyListReader().read(data).value))
        #expect(archive.decodedObjects.count > 250)
        #expect(FlatDecoding.difference(data) == nil)
    }

    /// (label, options): every limit, and the choices that change what is decoded.
    static let optionSets: [(String, KeyedArchiveReadOptions)] = {
        var sets: [(String, KeyedArchiveReadOptions)] = [("default", .default)]
        var o = KeyedArchiveReadOptions(); o.propertyList.maximumObjectCount = 200; sets.append(("200 objects", o))
        o = KeyedArchiveReadOptions(); o.propertyList.maximumObjectCount = 2_000; sets.append(("2000 objects", o))
        o = KeyedArchiveReadOptions(); o.propertyList.maximumDepth = 3; sets.append(("plist depth 3", o))
        o = KeyedArchiveReadOptions(); o.propertyList.maximumDepth = 4; sets.append(("plist depth 4", o))
        o = KeyedArchiveReadOptions(); o.propertyList.maximumDecodedSize = 500; sets.append(("500 bytes", o))
        o = KeyedArchiveReadOptions(); o.propertyList.maximumDecodedSize = 5_000; sets.append(("5000 bytes", o))
        o = KeyedArchiveReadOptions(); o.maximumDepth = 2; sets.append(("archive depth 2", o))
        o = KeyedArchiveReadOptions(); o.topKey = "$0"; sets.append(("top key $0", o))
        o = KeyedArchiveReadOptions(); o.propertyList.maximumInputSize = 1_000; sets.append(("1000-byte input", o))
        return sets
    }()

    @Test(arguments: optionSets.indices)
    func limitsAreEnforcedTheSameEitherWay(_ index: Int) throws {
        let (label, options) = Self.optionSets[index]
        let data = try FlatDecoding.records(100)
        #expect(FlatDecoding.difference(data, options: options) == nil, "\(label)")
        #expect(FlatDecoding.difference(FlatDecoding.sharedArray, options: options) == nil, "\(label)")
    }

    @Test func theClassIndexCountsTheObjectsAndClassesTheDecoderDecodes() throws {
        let data = try FlatDecoding.records(30)
        let index = try #require(KeyedArchiveClassIndex(data: data))
        let archive = try KeyedArchive(data: data)
        #expect(index.objectCount == archive.decodedObjects.count)
        #expect(index.classCounts.map(\.name) == archive.classCounts.map(\.name))
        #expect(index.classCounts.map(\.count) == archive.classCounts.map(\.count))
        #expect(index.classes.map(\.name).contains("NSDictionary"))
        // An XML archive, and a plain binary plist, are left to the decoder.
        #expect(KeyedArchiveClassIndex(data: try XMLPropertyListWriter().write(archive.plist)) == nil)
        #expect(KeyedArchiveClassIndex(data: BinaryPropertyListWriter().write(["a": 1])) == nil)
        // So is an archive whose decoding fails: the decoder says why.
        var deep = KeyedArchiveReadOptions()
        deep.maximumDepth = 2
        #expect(KeyedArchiveClassIndex(data: data, options: deep) == nil)
        #expect(throws: KeyedArchiveError.self) { try KeyedArchive(data: data, options: deep) }
    }

    @Test func aSharedArrayIsReadFlatAsTheTreeReadsIt() throws {
        let data = FlatDecoding.sharedArray
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data) != nil)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data, keepingValues: false) != nil)
        #expect(KeyedArchiveClassIndex(data: data) != nil)
        let archive = try KeyedArchive(data: data)
        #expect(archive.objects[1]?.content == archive.objects[2]?.content)
        #expect(archive.objects[2]?.content == .array([.object(uid: 2), .inline(.real(1.5))]))
        #expect(FlatDecoding.difference(data) == nil)
    }

    /// A UID array's references are written in place once all are known to be in range; one
    /// out of range is the error the tree gives, and so is every element of the array.
    @Test func aReferenceOutsideObjectsInAnArrayFailsTheSameEitherWay() throws {
        func archive(_ references: [UInt64]) -> Data {
            func dictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
                .dictionary(PropertyListDictionary(entries.map { (.string($0.0), $0.1) }))
            }
            let arrayClass = dictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))])
            return BinaryPropertyListWriter().write(dictionary([
                ("$archiver", .string("NSKeyedArchiver")),
                ("$version", .integer(PropertyListInteger(100_000))),
                ("$top", dictionary([("root", .uid(1))])),
                ("$objects", .array([.string("$null"), dictionary([("NS.objects", .array(references.map { .uid($0) })), ("$class", .uid(3))]),
                                     .string("element"), arrayClass])),
            ]))
        }
        let good = archive([2, 0, 2])
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(good) != nil)
        #expect(try KeyedArchive(data: good).objects[1]?.content == .array([.object(uid: 2), .null, .object(uid: 2)]))
        #expect(FlatDecoding.difference(good) == nil)
        let bad = archive([2, 99, 2])
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(bad) != nil)
        #expect(throws: KeyedArchiveError.self) { try KeyedArchive(data: bad) }
        #expect(FlatDecoding.difference(bad) == nil)
    }

    /// Damaged archives: each fails, or reads, the same way by both paths.
    @Test func damagedArchivesFailOrReadTheSameEitherWay() throws {
        let original = [UInt8](try FlatDecoding.records(20))
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            // xorshift64: the same mutations on every run.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        var failures: [String] = []
        for round in 0..<400 {
            var bytes = original
            for _ in 0...(round % 3) {
                let at = 8 + next() % (bytes.count - 8)
                bytes[at] = round % 4 == 0 ? bytes[at] ^ UInt8(1 << (next() % 8)) : UInt8(truncatingIfNeeded: next())
            }
            if let difference = FlatDecoding.difference(Data(bytes)) { failures.append("round \(round): \(difference)") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}

@Suite(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
struct KeyedArchiveFlatDecodingCorpusTests {
    @Test func everyCorpusFileReadsTheSameEitherWay() throws {
        var failures: [String] = []
        for row in ArchiveCorpus.rows {
            guard let data = try? ArchiveCorpus.data(row.path), data.starts(with: Array("bplist".utf8)) else { continue }
            if let difference = FlatDecoding.difference(data) { failures.append("\(row.path): \(difference)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
