import Foundation
import Testing
@testable import KeyedArchive
import PlistLayoutFixtures
import PropertyList

/// Archives whose writer shares objects (one `NS.keys` array for every dictionary with those
/// keys, as CPython's plistlib writes it; one object for equal scalars; a dictionary of
/// `$objects` referenced twice; references of 3 bytes) are read flat, and read as the tree
/// reads them: the same objects as the same archive in CF's layout. Sharing past the limits,
/// and sharing that cycles, is refused as the tree refuses it.
@Suite struct KeyedArchiveSharedLayoutTests {
    /// `data`'s property list written again by `writer`.
    static func relaid(_ data: Data, _ writer: SharedLayoutWriter) throws -> Data {
        writer.write(try PropertyListReader().read(data).value)
    }

    static let layouts: [(String, SharedLayoutWriter)] = [
        ("shared", SharedLayoutWriter()),
        ("shared, 3-byte references", SharedLayoutWriter(referenceSize: 3)),
        ("scalars shared, collections not", SharedLayoutWriter(sharesCollections: false)),
    ]

    @Test(arguments: layouts.indices)
    func theRecordsReadFlatAndAsInCFsLayout(_ index: Int) throws {
        let (label, writer) = Self.layouts[index]
        let apple = try FlatDecoding.records(60)
        let shared = try Self.relaid(apple, writer)
        #expect(shared != apple)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(shared, keepingValues: false) != nil, "\(label)")
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(shared) != nil, "\(label)")
        #expect(KeyedArchiveClassIndex(data: shared) != nil, "\(label)")
        #expect(KeyedArchiveObjectTable(data: shared) != nil, "\(label)")
        #expect(FlatDecoding.difference(shared) == nil, "\(label)")
        let a = try KeyedArchive(data: apple), b = try KeyedArchive(data: shared)
        #expect(a.objects == b.objects, "\(label)")
        #expect(a.top == b.top && a.root == b.root && a.archiver == b.archiver, "\(label)")
    }

    /// Foundation's NSKeyedArchiver on Linux writes each dictionary's keys as string objects of
    /// their own: read flat, one slot per string, under every limit as the tree reads it.
    @Test(arguments: KeyedArchiveFlatDecodingTests.optionSets.indices)
    func keysWrittenAsObjectsOfTheirOwnReadFlatAndAsTheTreeReadsThem(_ index: Int) throws {
        let (label, options) = KeyedArchiveFlatDecodingTests.optionSets[index]
        let root = [NSArray(), ["k": "v", "l": NSNull()] as NSDictionary, ["a", 1, NSArray(array: ["b"])] as NSArray,
                    NSSet(array: [2]), ["k": [1.5] as NSArray] as NSDictionary] as NSArray
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data, keepingValues: false) != nil)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data) != nil)
        #expect(FlatDecoding.difference(data, options: options) == nil, "\(label)")
    }

    @Test func twoKeyObjectsOfOneStringReadFlatUnlessOneDictionaryHoldsBoth() throws {
        func archive(secondKeys: [UInt8]) -> Data {
            FlatDecoding.assemble(FlatDecoding.archiveHead + [
                .dictionary(keys: [15, 16], values: [17, 18]),           // 10: UID 1, NS.objects = [UID 2]
                .dictionary(keys: secondKeys, values: [26, 18]),         // 11: UID 2, NS.objects = []
                .dictionary(keys: [19, 20], values: [21, 22]),           // 12: UID 3, NSArray's class
                .string("root"),                                         // 13
                .uid(1),                                                 // 14
                .string("NS.objects"), .string("$class"),                // 15, 16
                .array([23]),                                            // 17: [UID 2]
                .uid(3),                                                 // 18
                .string("$classname"), .string("$classes"),              // 19, 20
                .string("NSArray"),                                      // 21
                .array([21, 25]),                                        // 22: ["NSArray", "NSObject"]
                .uid(2),                                                 // 23
                .string("$class"),                                       // 24: a second "$class"
                .string("NSObject"),                                     // 25
                .array([]),                                              // 26
                .string("NS.objects"),                                   // 27: a second "NS.objects"
            ])
        }
        // Each dictionary with key objects of its own.
        let own = archive(secondKeys: [27, 24])
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(own, keepingValues: false) != nil)
        #expect(KeyedArchiveObjectTable(data: own) != nil)
        #expect(FlatDecoding.difference(own) == nil)
        // One dictionary with two `NS.objects` keys, of two objects: CF keeps the first, as the
        // tree reads it; the flat scan leaves it there.
        let twice = archive(secondKeys: [27, 15])
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(twice, keepingValues: false) == nil)
        #expect(FlatDecoding.difference(twice) == nil)
    }

    /// The plistlib layout shares every `NS.keys`: the records' keys array is one object.
    @Test func theSharedLayoutStoresEachKeysArrayOnce() throws {
        let apple = try FlatDecoding.records(60)
        let shared = try Self.relaid(apple, SharedLayoutWriter())
        func objectCount(_ data: Data) -> Int {
            data.withUnsafeBytes { raw in Int(UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: raw.count - 24, as: UInt64.self))) }
        }
        // 60 records, each with its own keys array and (mostly) its own tags array in CF's layout.
        #expect(objectCount(shared) < objectCount(apple) - 59)
    }

    @Test(arguments: KeyedArchiveFlatDecodingTests.optionSets.indices)
    func limitsAreEnforcedTheSameEitherWayOnSharedLayouts(_ index: Int) throws {
        let (label, options) = KeyedArchiveFlatDecodingTests.optionSets[index]
        let shared = try Self.relaid(try FlatDecoding.records(100), SharedLayoutWriter())
        #expect(FlatDecoding.difference(shared, options: options) == nil, "\(label)")
    }

    @Test func fixturesInASharedLayoutReadTheSameEitherWay() throws {
        for name in KeyedArchiveFlatDecodingTests.fixtures {
            let data = try TestArchive.fixture(name)
            guard let plist = try? PropertyListReader().read(data).value else { continue }
            let shared = SharedLayoutWriter(referenceSize: 3).write(plist)
            #expect(FlatDecoding.difference(shared) == nil, "\(name)")
        }
    }

    /// Damaged shared layouts, under every set of limits: each fails, or reads, the same way by
    /// both paths (the flat scan never reads what the tree refuses, nor reads it otherwise).
    @Test func damagedSharedLayoutsFailOrReadTheSameEitherWay() throws {
        let original = [UInt8](try Self.relaid(try FlatDecoding.records(12), SharedLayoutWriter()))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        var failures: [String] = []
        for round in 0..<300 {
            var bytes = original
            for _ in 0...(round % 3) {
                let at = 8 + next() % (bytes.count - 8)
                bytes[at] = round % 4 == 0 ? bytes[at] ^ UInt8(1 << (next() % 8)) : UInt8(truncatingIfNeeded: next())
            }
            let (label, options) = KeyedArchiveFlatDecodingTests.optionSets[round % KeyedArchiveFlatDecodingTests.optionSets.count]
            if let difference = FlatDecoding.difference(Data(bytes), options: options) { failures.append("round \(round), \(label): \(difference)") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// FuzzCheckAndUnarchive's finding: `$objects[0]` a dictionary (no "$null" first) that
    /// UID 0 references, shared with `$objects[1]`. The flat table's readers took UID 0 for nil;
    /// such an archive is now left to the tree's decoding, in both layouts.
    @Test func anArchiveWithoutNullFirstIsLeftToTheTree() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions/FuzzCheckAndUnarchive/crash-objects-zero-not-null")
        let found = try Data(contentsOf: path)
        let unshared = SharedLayoutWriter(sharesCollections: false).write(try PropertyListReader().read(found).value)
        for data in [found, unshared] {
            #expect(KeyedArchiveClassIndex(data: data) == nil)
            #expect(KeyedArchiveObjectTable(data: data) == nil)
            let archive = try KeyedArchive(data: data)
            #expect(archive.decodedObjects.count == 5)
            #expect(FlatDecoding.difference(data) == nil)
        }
    }

    static func dictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
        .dictionary(PropertyListDictionary(entries.map { (.string($0.0), $0.1) }))
    }

    /// An archive of `count` NSArray objects (one per element of `$objects`) whose `NS.objects`
    /// is `objects`; with `distinct`, each has an entry of its own, else the shared layout
    /// makes them all one dictionary.
    static func arrays(_ count: Int, objects: PropertyListValue, distinct: Bool) -> PropertyListValue {
        let arrayClass = dictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))])
        var elements: [PropertyListValue] = [.string("$null"), arrayClass]
        for i in 0..<count {
            var entries: [(String, PropertyListValue)] = [("NS.objects", objects), ("$class", .uid(1))]
            if distinct { entries.append(("n", .integer(PropertyListInteger(i)))) }
            elements.append(dictionary(entries))
        }
        return dictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(PropertyListInteger(100_000))),
            ("$top", dictionary([("root", .uid(2))])),
            ("$objects", .array(elements)),
        ])
    }

    /// Thousands of dictionaries sharing one array of thousands of UIDs: a small file that
    /// stands for millions of values, which the expansion limit refuses by either path.
    @Test(arguments: [true, false])
    func aUIDArraySharedPastTheExpansionLimitIsRefused(distinct: Bool) throws {
        let n = 3_000
        let plist = Self.arrays(n, objects: .array(Array(repeating: .uid(1), count: n)), distinct: distinct)
        let data = SharedLayoutWriter().write(plist)
        #expect(data.count < 100_000)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data, keepingValues: false) == nil)
        #expect(KeyedArchiveClassIndex(data: data) == nil)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedArchive(data: data) }
        #expect(error.description.contains("expansion limit"), "\(error)")
        #expect(FlatDecoding.difference(data) == nil)
        // The same sharing within the limits reads, flat, as the tree reads it.
        let small = SharedLayoutWriter().write(Self.arrays(20, objects: .array(Array(repeating: .uid(1), count: 20)), distinct: distinct))
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(small, keepingValues: false) != nil)
        #expect(FlatDecoding.difference(small) == nil)
    }

    /// Arrays that each hold the next twice, under the `NS.objects` of two dictionaries:
    /// exponential sharing inside a collection value, refused by the expansion limit as before.
    @Test func exponentialSharingOfCollectionsIsRefused() throws {
        // Objects 26 to 66: array 26 holds a UID and a real, each next one the previous twice.
        let chain: [FlatDecoding.Object] = [.array([23, 24])] + (0..<40).map { k in .array([UInt8(26 + k), UInt8(26 + k)]) }
        let data = FlatDecoding.assemble(FlatDecoding.archiveHead + [
            .dictionary(keys: [15, 16], values: [66, 18]),           // 10: UID 1, NS.objects = the last array
            .dictionary(keys: [15, 16], values: [66, 18]),           // 11: UID 2, the same
            .dictionary(keys: [19, 20], values: [21, 22]),           // 12: UID 3, NSArray's class
            .string("root"),                                         // 13
            .uid(1),                                                 // 14
            .string("NS.objects"), .string("$class"),                // 15, 16
            .string("unused"),                                       // 17
            .uid(3),                                                 // 18
            .string("$classname"), .string("$classes"),              // 19, 20
            .string("NSArray"),                                      // 21
            .array([21, 25]),                                        // 22: ["NSArray", "NSObject"]
            .uid(2),                                                 // 23
            .real(1.5),                                              // 24
            .string("NSObject"),                                     // 25
        ] + chain)
        #expect(data.count < 1_000)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data) == nil)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data, keepingValues: false) == nil)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedArchive(data: data) }
        #expect(error.description.contains("through shared references"), "\(error)")
        #expect(FlatDecoding.difference(data) == nil)
    }

    /// A collection shared by two dictionaries of `$objects` that holds the first of them: a
    /// cycle, refused as the tree refuses it.
    @Test func aSharedCollectionThatCyclesIsRefused() throws {
        let data = FlatDecoding.assemble(FlatDecoding.archiveHead + [
            .dictionary(keys: [15, 16], values: [17, 18]),           // 10: UID 1, NS.objects = 17
            .dictionary(keys: [15, 16], values: [17, 18]),           // 11: UID 2, the same NS.objects
            .dictionary(keys: [19, 20], values: [21, 22]),           // 12: UID 3, NSArray's class
            .string("root"),                                         // 13
            .uid(1),                                                 // 14
            .string("NS.objects"), .string("$class"),                // 15, 16
            .array([10, 24]),                                        // 17: [object 10 itself, 1.5], shared
            .uid(3),                                                 // 18
            .string("$classname"), .string("$classes"),              // 19, 20
            .string("NSArray"),                                      // 21
            .array([21, 25]),                                        // 22: ["NSArray", "NSObject"]
            .uid(2),                                                 // 23
            .real(1.5),                                              // 24
            .string("NSObject"),                                     // 25
        ])
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data) == nil)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data, keepingValues: false) == nil)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedArchive(data: data) }
        #expect(error.description.contains("contains itself"), "\(error)")
        #expect(FlatDecoding.difference(data) == nil)
    }

    /// A long string that two elements of `$objects` and two entries reference: read once,
    /// counted at each use.
    @Test func aLargeScalarSharedAcrossCollectionsReadsFlat() throws {
        let long = String(repeating: "shared text ", count: 20)
        let arrayClass = Self.dictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))])
        let plist = Self.dictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(PropertyListInteger(100_000))),
            ("$top", Self.dictionary([("root", .uid(2))])),
            ("$objects", .array([.string("$null"), arrayClass,
                                 Self.dictionary([("NS.objects", .array([.uid(3), .uid(4), .uid(5)])), ("$class", .uid(1))]),
                                 .string(long), .string(long),
                                 Self.dictionary([("note", .string(long)), ("other", .string(long)), ("$class", .uid(1))])])),
        ])
        let data = SharedLayoutWriter().write(plist)
        #expect(BinaryPropertyListReader().readFlatKeyedArchive(data, keepingValues: false) != nil)
        #expect(FlatDecoding.difference(data) == nil)
        var tight = KeyedArchiveReadOptions()
        tight.propertyList.maximumDecodedSize = long.utf8.count * 3
        #expect(BinaryPropertyListReader(options: tight.propertyList).readFlatKeyedArchive(data, keepingValues: false) == nil)
        #expect(FlatDecoding.difference(data, options: tight) == nil)
    }
}
