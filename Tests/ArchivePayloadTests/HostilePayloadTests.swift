import Foundation
import Testing
import ArchivePayload
import KeyedArchive
import PropertyList

/// The allow-list checker, the payload mapper and `KeyedArchiveDecoder` against archives built
/// to hurt them: deep chains, objects shared so that the payload would explode, a million
/// references to one object, nested payloads referenced many times and dictionaries whose
/// halves disagree. Each ends in a report, a payload or an error, in memory proportional to the
/// file; nothing here measures time. The decoder's side of these archives is in
/// KeyedArchiveTests/HostileArchiveTests.swift.
@Suite struct HostilePayloadTests {
    /// A binary archive of `objects` after `$null`, its root #1.
    static func archiveData(_ objects: [PropertyListValue]) -> Data {
        let plist: PropertyListValue = ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
                                        "$objects": .array(["$null"] + objects)]
        return BinaryPropertyListWriter().write(plist)
    }

    static func archive(_ objects: [PropertyListValue], options: KeyedArchiveReadOptions = .default) throws -> KeyedArchive {
        try KeyedArchive(data: archiveData(objects), options: options)
    }

    static func classDescription(_ name: String) -> PropertyListValue {
        ["$classname": .string(name), "$classes": [.string(name), "NSObject"]]
    }

    static func payloadError(_ archive: KeyedArchive, _ options: PayloadOptions = PayloadOptions()) -> PayloadError? {
        do {
            _ = try PayloadMapper(options: options).payload(of: archive)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Shared objects that would explode the payload

    /// `levels` objects, each with two fields naming the next: 2^levels leaves once expanded.
    static func doublingObjects(_ levels: Int) -> [PropertyListValue] {
        let classUID = UInt64(levels + 2)
        var objects: [PropertyListValue] = []
        for i in 1...levels {
            objects.append(["$class": .uid(classUID), "left": .uid(UInt64(i + 1)), "right": .uid(UInt64(i + 1))])
        }
        objects.append("leaf")
        objects.append(classDescription("Node"))
        return objects
    }

    @Test func objectsSharedSoThatThePayloadWouldDoubleSixtyTimesAreRefused() throws {
        // 2^60 leaves from 62 objects; no depth or cycle rule applies, only the value count.
        let archive = try Self.archive(Self.doublingObjects(60))
        let error = Self.payloadError(archive)
        #expect(error?.code == .tooLarge, "\(String(describing: error))")
        // The checker looks at each object once and is not troubled: one violation per object.
        #expect(AllowListChecker().check(archive).violations.count == 60)
        #expect(throws: PayloadError.self) {
            try KeyedArchiveDecoder(allowList: AllowList(classes: ["Node"])).decode([String: String].self, from: Self.archiveData(Self.doublingObjects(60)))
        }
    }

    @Test(arguments: [(limit: 2_046, accepted: false), (limit: 2_047, accepted: true)])
    func theValueLimitCountsASharedObjectAtEveryPlaceItAppears(limit: Int, accepted: Bool) throws {
        // Ten levels: 2^10 - 1 node dictionaries and 2^10 leaf strings in the payload, 2,047
        // values, from eleven objects.
        let archive = try Self.archive(Self.doublingObjects(10))
        let error = Self.payloadError(archive, PayloadOptions(maximumValueCount: limit))
        if accepted { #expect(error == nil) } else { #expect(error?.code == .tooLarge) }
    }

    /// Records whose dictionaries share one `NS.keys` array (as decoding gives them) have their
    /// keys mapped once; each key still counts where it appears.
    @Test(arguments: [(limit: 3 * 7 + 1 - 1, accepted: false), (limit: 3 * 7 + 1, accepted: true)])
    func recordsSharingTheirKeysMapEachKeyAndCountItWhereItAppears(limit: Int, accepted: Bool) throws {
        // #1 the root array, #2 and #3 the classes, #4–#6 the records, #7–#9 the keys, then
        // each record's id and name, and a tag they share.
        var objects: [PropertyListValue] = [["$class": .uid(2), "NS.objects": [.uid(4), .uid(5), .uid(6)]],
                                            Self.classDescription("NSArray"), Self.classDescription("NSDictionary")]
        for i in 0..<3 {
            objects.append(["$class": .uid(3), "NS.keys": [.uid(7), .uid(8), .uid(9)],
                            "NS.objects": [.uid(UInt64(10 + 2 * i)), .uid(UInt64(11 + 2 * i)), .uid(16)]])
        }
        objects += ["id", "name", "tag"]
        for i in 0..<3 { objects += [.integer(PropertyListInteger(i)), .string("n\(i)")] }
        objects.append("shared")
        let archive = try Self.archive(objects)
        // The root array, and per record the dictionary, three keys and three values.
        let error = Self.payloadError(archive, PayloadOptions(maximumValueCount: limit))
        if accepted { #expect(error == nil) } else { #expect(error?.code == .tooLarge) }
        let payload = try PayloadMapper(options: PayloadOptions(target: .json)).payload(of: archive)
        let expected: PropertyListValue = .array((0..<3).map { i in
            .dictionary(PropertyListDictionary([("id", .integer(PropertyListInteger(i))), ("name", .string("n\(i)")), ("tag", "shared")]))
        })
        #expect(payload == expected)
    }

    @Test func anInlineArrayThatSharesSubtreesIsCountedAsItExpands() throws {
        // Arrays each holding the next twice, 2^24 leaves once expanded: a binary plist of a few
        // hundred bytes can share them this way, and so does this value in memory. (A lower
        // limit than the default keeps the count quick in a debug build.)
        var nested: PropertyListValue = ["x", "x"]
        for _ in 0..<23 { nested = [nested, nested] }
        let plist: PropertyListValue = ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
                                        "$objects": ["$null", ["$class": .uid(2), "f": [.uid(0), nested]], Self.classDescription("Thing")]]
        let archive = try KeyedArchive(plist: plist)
        let error = Self.payloadError(archive, PayloadOptions(maximumValueCount: 1_000_000))
        #expect(error?.code == .tooLarge, "\(String(describing: error))")
        #expect(error?.message.contains("at root.f[1]") == true)
    }

    // MARK: - A million references to one object

    static func millionReferences(to target: PropertyListValue, extra: [PropertyListValue] = []) throws -> KeyedArchive {
        try archive([
            ["$class": .uid(3), "NS.objects": .array(Array(repeating: .uid(2), count: 1_000_000))],  // #1
            target,                                                                                   // #2
            classDescription("NSArray"),                                                              // #3
        ] + extra)
    }

    @Test func aMillionReferencesToOneStringMapToAMillionStrings() throws {
        let archive = try Self.millionReferences(to: "shared")
        #expect(AllowListChecker().check(archive).isAccepted)
        let payload = try PayloadMapper().payload(of: archive)
        #expect(payload.arrayValue?.count == 1_000_000)
        let strings = try JSONDecoder().decode([String].self, from: JSONPropertyListWriter().write(payload))
        #expect(strings.count == 1_000_000 && strings.allSatisfy { $0 == "shared" })
    }

    @Test func aMillionReferencesToAnArrayOfAHundredAreRefusedAtTheValueLimit() throws {
        // 10^8 values once expanded. (The default limit, 10^7, is the same check; a lower one
        // keeps the test quick in a debug build.)
        let hundred: PropertyListValue = ["$class": .uid(3), "NS.objects": .array(Array(repeating: .uid(4), count: 100))]
        let archive = try Self.millionReferences(to: hundred, extra: ["x"])
        let error = Self.payloadError(archive, PayloadOptions(maximumValueCount: 1_000_000))
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("more than 1000000 values at root[") == true, "\(String(describing: error))")
    }

    @Test func aNestedPayloadReferencedManyTimesIsCountedAtEveryUse() throws {
        // One NSData holding a JSON array of 1,000 numbers, referenced 20,000 times: 2 × 10^7
        // values once expanded. Without expansion the data stays data.
        let json = Data(("[" + (0..<1_000).map(String.init).joined(separator: ",") + "]").utf8)
        let data: PropertyListValue = ["$class": .uid(4), "NS.data": .data(json)]
        let archive = try Self.archive([
            ["$class": .uid(3), "NS.objects": .array(Array(repeating: .uid(2), count: 20_000))],  // #1
            data,                                                                                  // #2
            Self.classDescription("NSArray"),                                                      // #3
            Self.classDescription("NSData"),                                                       // #4
        ])
        #expect(Self.payloadError(archive, PayloadOptions(expandsNestedPayloads: true))?.code == .tooLarge)
        #expect(Self.payloadError(archive) == nil)
        // Within the limit, every use is the expanded document.
        let small = try PayloadMapper(options: PayloadOptions(expandsNestedPayloads: true, maximumValueCount: 20_000 * 1_002 + 1))
            .payload(of: archive)
        #expect(small.arrayValue?.count == 20_000)
        #expect(small.arrayValue?.last?.arrayValue?.count == 1_000)
    }

    // MARK: - Deep chains

    @Test func aChainOf100000ObjectsIsCheckedAndThenRefusedByTheMapperAtItsDepthLimit() throws {
        var objects: [PropertyListValue] = []
        for i in 1...100_000 {
            objects.append(["$class": .uid(100_001), "next": .uid(i < 100_000 ? UInt64(i + 1) : 0)])
        }
        objects.append(Self.classDescription("Node"))
        var options = KeyedArchiveReadOptions()
        options.maximumDepth = 200_000
        let archive = try Self.archive(objects, options: options)
        // Every object is refused and named; each path stays short however deep the object is.
        let report = AllowListChecker().check(archive)
        #expect(report.violations.count == 100_000)
        #expect(report.violations.last?.path == "root…(99989 more)…" + String(repeating: ".next", count: 10))
        #expect(Self.payloadError(archive)?.code == .tooDeep)
        let decoder = KeyedArchiveDecoder(allowList: AllowList(classes: ["Node"]), readOptions: options)
        #expect(throws: PayloadError.self) { try decoder.decode([String: String].self, from: Self.archiveData(objects)) }
    }

    @Test func aReportOnDeepObjectsUnderLongKeysStaysSmall() throws {
        // 500 objects deep under a 2,000-character key, then 2,000 refused objects: full paths
        // would be 2,000 × 500 × 2,000 characters, 2 GB, from a file of 50 kB.
        let key = String(repeating: "k", count: 2_000)
        let classUID = UInt64(500 + 2_000 + 2)
        var objects: [PropertyListValue] = []
        for i in 1...500 { objects.append(.dictionary(PropertyListDictionary([(.string("$class"), .uid(classUID)), (.string(key), .uid(UInt64(i + 1)))]))) }
        var hub = PropertyListDictionary([(.string("$class"), .uid(classUID))])
        for j in 0..<2_000 { hub.append(key: .string("f\(j)"), value: .uid(UInt64(502 + j))) }
        objects.append(.dictionary(hub))                                               // #501
        objects += Array(repeating: ["$class": .uid(classUID)], count: 2_000)          // #502…#2501
        objects.append(Self.classDescription("Evil"))                                   // #2502
        let data = Self.archiveData(objects)
        let report = AllowListChecker().check(try KeyedArchive(data: data))
        #expect(report.violations.count == 2_501)
        let longest = report.violations.map(\.path.utf8.count).max() ?? 0
        #expect(longest < 12 * 110)
        #expect(report.violations.last?.path.hasPrefix("root…(491 more)….") == true)
    }

    // MARK: - Dictionaries whose keys and objects disagree

    @Test func aDictionaryWithMoreKeysThanObjectsMapsToItsFields() throws {
        let archive = try Self.archive([
            ["$class": .uid(4), "NS.keys": [.uid(2), .uid(3)], "NS.objects": [.uid(2)]],  // #1
            "a",                                                                        // #2
            "b",                                                                        // #3
            Self.classDescription("NSDictionary"),                                      // #4
        ])
        #expect(AllowListChecker().check(archive).isAccepted)
        let payload = try PayloadMapper().payload(of: archive)
        #expect(payload["NS.keys"] == ["a", "b"])
        #expect(payload["NS.objects"] == ["a"])
    }
}
