import Foundation
import Testing
import ArchiveReports
import KeyedArchive
import PropertyList

/// An archive's property list: `$objects` after `$null` as given, `$top` naming object 1.
func hostileArchive(_ objects: [PropertyListValue], top: PropertyListValue = ["root": .uid(1)]) -> PropertyListValue {
    ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": top, "$objects": .array(["$null"] + objects)]
}

/// A class description, as `$class` references name it.
func classDescription(_ name: String, _ chain: [String]? = nil) -> PropertyListValue {
    ["$classname": .string(name), "$classes": .array((chain ?? [name, "NSObject"]).map { .string($0) })]
}

/// Archives built to hurt the decoder and what reads its result: references that loop, chains
/// of 100,000 objects, a million references to one object, dictionaries whose halves disagree,
/// and property lists whose sharing would explode. Each is refused with an error or read in
/// memory proportional to the file. Nothing here measures time.
///
/// Covered elsewhere and not repeated: a field that refers to its own object, printed and
/// exported as a cycle (KeyedArchiveTreePrinterTests, KeyedArchiveJSONExporterTests,
/// Fixtures/archives/cycle-self-reference.bplist); a 10,000-deep chain printed in linear size.
/// The allow-list checker and payload mapper face the same archives in
/// ArchivePayloadTests/HostilePayloadTests.swift.
@Suite struct HostileArchiveTests {
    static func read(_ plist: PropertyListValue, _ options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) -> KeyedArchive {
        try KeyedArchive(data: BinaryPropertyListWriter().write(plist), options: options)
    }

    // MARK: - Class references that point at themselves or into cycles

    struct BadClass: CustomTestStringConvertible, Sendable {
        var name: String
        var objects: [PropertyListValue]
        var testDescription: String { name }
    }

    static let badClasses: [BadClass] = [
        BadClass(name: "$class names the object itself", objects: [
            ["$class": .uid(1), "name": "me"],                           // #1
        ]),
        BadClass(name: "$class names $null", objects: [
            ["$class": .uid(0)],                                         // #1
        ]),
        BadClass(name: "$class names a UID past $objects", objects: [
            ["$class": .uid(UInt64.max)],                                // #1
        ]),
        BadClass(name: "two objects each the class of the other", objects: [
            ["$class": .uid(2)],                                         // #1
            ["$class": .uid(1)],                                         // #2
        ]),
        BadClass(name: "$class names a string", objects: [
            ["$class": .uid(2)],                                         // #1
            "NSString",                                                  // #2
        ]),
        BadClass(name: "$classname is a UID back to the class", objects: [
            ["$class": .uid(2)],                                         // #1
            ["$classname": .uid(2), "$classes": ["X"]],                  // #2
        ]),
        BadClass(name: "$classes holds a UID back to the object", objects: [
            ["$class": .uid(2)],                                         // #1
            ["$classname": "X", "$classes": [.uid(1)]],                  // #2
        ]),
        BadClass(name: "$class is an integer, not a UID", objects: [
            ["$class": 2],                                               // #1
            classDescription("X"),                                       // #2
        ]),
        BadClass(name: "the root is a class description", objects: [
            classDescription("X"),                                       // #1
        ]),
    ]

    @Test(arguments: badClasses)
    func aClassReferenceThatLeadsNowhereIsRefused(_ bad: BadClass) {
        let error = #expect(throws: KeyedArchiveError.self) { try Self.read(hostileArchive(bad.objects)) }
        #expect(error?.code == .malformed, "\(String(describing: error))")
    }

    @Test func aClassDescriptionWhoseOwnClassNamesItselfIsNotFollowed() throws {
        let archive = try Self.read(hostileArchive([
            ["$class": .uid(2), "n": 1],                                 // #1
            ["$classname": "Loop", "$classes": ["Loop", "NSObject"], "$class": .uid(2)],  // #2
        ]))
        #expect(archive.rootObject?.className == "Loop")
        #expect(archive.rootObject?.fields.map(\.key) == ["n"])
    }

    // MARK: - Known classes with impossible fields

    static let impossibleFields: [(String, String, PropertyListValue)] = [
        ("an NSDecimalNumber exponent of -2^40 (a terabyte of zeros)", "NSDecimalNumber",
         ["NS.exponent": -1_099_511_627_776, "NS.length": 1, "NS.mantissa": .data(Data([1, 0]))]),
        ("an NSDecimalNumber exponent of Int64.min (which cannot be negated)", "NSDecimalNumber",
         ["NS.exponent": .integer(PropertyListInteger(Int64.min)), "NS.length": 1, "NS.mantissa": .data(Data([1, 0]))]),
        ("an NSDecimalNumber length of -1", "NSDecimalNumber",
         ["NS.exponent": 0, "NS.length": -1, "NS.mantissa": .data(Data([1, 0]))]),
        ("an NSDecimalNumber length of Int64.min", "NSDecimalNumber",
         ["NS.exponent": 0, "NS.length": .integer(PropertyListInteger(Int64.min)), "NS.mantissa": .data(Data([1, 0]))]),
        ("an NSIndexSet range count whose double overflows", "NSIndexSet",
         ["NSRangeCount": 4_611_686_018_427_387_904, "NSRangeData": .data(Data([1, 2]))]),
    ]

    @Test(arguments: impossibleFields)
    func aKnownClassWithImpossibleFieldsIsReadAsAPlainObject(name: String, className: String, fields: PropertyListValue) throws {
        var entries = fields.dictionaryValue ?? PropertyListDictionary()
        entries.append(key: "$class", value: .uid(2))
        let archive = try Self.read(hostileArchive([.dictionary(entries), classDescription(className)]))
        #expect(archive.rootObject?.content == .object, "\(name)")
        #expect(archive.rootObject?.fields.count == fields.dictionaryValue?.count)
    }

    // MARK: - Deep chains

    /// `count` objects of class Node (the last UID is the class), each referring to the next.
    static func chain(_ count: Int) -> PropertyListValue {
        var objects: [PropertyListValue] = []
        objects.reserveCapacity(count + 1)
        let classUID = UInt64(count + 1)
        for i in 1...count {
            objects.append(["$class": .uid(classUID), "next": .uid(i < count ? UInt64(i + 1) : 0)])
        }
        objects.append(classDescription("Node"))
        return hostileArchive(objects)
    }

    @Test func aChainOf100000ObjectsIsRefusedAtTheDefaultDepthLimit() {
        let error = #expect(throws: KeyedArchiveError.self) { try Self.read(Self.chain(100_000)) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("deeper than 512") == true)
    }

    @Test func aChainOf100000ObjectsDecodesAndExportsWithoutRecursionWhenTheLimitIsRaised() throws {
        var options = KeyedArchiveReadOptions()
        options.maximumDepth = 200_000
        let archive = try Self.read(Self.chain(100_000), options)
        #expect(archive.decodedObjects.count == 100_000)
        #expect(archive.objects[100_000]?[field: "next"] == .null)
        let json = try KeyedArchiveJSONExporter(prettyPrinted: false).write(archive)
        #expect(json.count < 100_000 * 200)
        let dot = KeyedArchiveDotExporter().render(archive)
        #expect(dot.contains("o99999 -> o100000"))
    }

    @Test func anErrorDeepInAnArchiveUnderLongKeysNamesItsPathInALine() {
        // 600 objects, each under a 2,000-character key: the depth limit stops the decoder at
        // #513, whose full path would be a megabyte.
        let key = String(repeating: "k", count: 2_000)
        var objects: [PropertyListValue] = []
        for i in 1...600 {
            objects.append(.dictionary(PropertyListDictionary([(.string("$class"), .uid(601)), (.string(key), .uid(i < 600 ? UInt64(i + 1) : 0))])))
        }
        objects.append(classDescription("Node"))
        let error = #expect(throws: KeyedArchiveError.self) { try Self.read(hostileArchive(objects)) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.objectUID == 513)
        #expect(error?.keyPath?.hasPrefix("root…(502 more)….kkkk") == true)
        #expect((error?.keyPath?.count ?? .max) < 11 * 110)
    }

    // MARK: - A million references to one object

    @Test func aMillionReferencesToOneObjectDecodeAsOneObject() throws {
        let archive = try Self.read(hostileArchive([
            ["$class": .uid(3), "NS.objects": .array(Array(repeating: .uid(2), count: 1_000_000))],  // #1
            "shared",                                                                                 // #2
            classDescription("NSArray"),                                                              // #3
        ]))
        guard case .array(let elements)? = archive.rootObject?.content else {
            Issue.record("not an array: \(String(describing: archive.rootObject?.content))")
            return
        }
        #expect(elements.count == 1_000_000)
        #expect(elements.allSatisfy { $0 == .object(uid: 2) })
        // Two objects, however many references: the array and its one string.
        #expect(archive.decodedObjects.map(\.uid) == [1, 2])
        // The export lists the references, not copies of the string: linear in the file.
        let json = try KeyedArchiveJSONExporter(prettyPrinted: false).write(archive)
        #expect(json.count < 1_000_000 * 32)
    }

    // MARK: - Dictionaries whose keys and objects disagree

    static let twoUIDs: PropertyListValue = [.uid(2), .uid(3)]
    static let oneUID: PropertyListValue = [.uid(2)]
    static let disagreeing: [(String, PropertyListValue)] = [
        ("more keys than objects", ["NS.keys": twoUIDs, "NS.objects": oneUID]),
        ("more objects than keys", ["NS.keys": oneUID, "NS.objects": twoUIDs]),
        ("keys but no objects", ["NS.keys": oneUID]),
        ("keys that are not an array", ["NS.keys": .uid(2), "NS.objects": oneUID]),
        ("no keys or objects at all", [:]),
    ]

    @Test(arguments: disagreeing)
    func aDictionaryWhoseKeysAndObjectsDisagreeIsReadAsAPlainObject(name: String, fields: PropertyListValue) throws {
        var entries = fields.dictionaryValue ?? PropertyListDictionary()
        entries.append(key: "$class", value: .uid(4))
        let archive = try Self.read(hostileArchive([
            .dictionary(entries),                                        // #1
            "a",                                                         // #2
            "b",                                                         // #3
            classDescription("NSDictionary"),                            // #4
        ]))
        #expect(archive.rootObject?.content == .object, "\(name)")
        #expect(archive.rootObject?.fields.count == fields.dictionaryValue?.count)
        #expect(!KeyedArchiveTreePrinter().render(archive).isEmpty)
    }

    // MARK: - Property-list sharing inside a field

    /// A binary archive whose root object has one field, `f`: an array holding a reference and
    /// the next array twice, `levels` deep, so the field is 2^levels arrays once expanded while
    /// the file, which shares them, stays a few hundred bytes. Two-byte offsets and references.
    static func sharedArraysArchive(levels: Int) -> Data {
        func ascii(_ s: String) -> [UInt8] {
            let n = s.utf8.count
            return (n < 15 ? [0x50 | UInt8(n)] : [0x5F, 0x10, UInt8(n)]) + Array(s.utf8)  // short, or count as an integer
        }
        func refs(_ r: [Int]) -> [UInt8] { r.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        func array(_ r: [Int]) -> [UInt8] { [0xA0 | UInt8(r.count)] + refs(r) }
        func dictionary(_ keys: [Int], _ values: [Int]) -> [UInt8] { [0xD0 | UInt8(keys.count)] + refs(keys + values) }
        let outermost = 21 + levels  // the index of the last level below
        var objects: [[UInt8]] = [
            dictionary([1, 2, 3, 4], [5, 6, 7, 8]),  // 0: the top level
            ascii("$archiver"),                      // 1
            ascii("$version"),                       // 2
            ascii("$top"),                           // 3
            ascii("$objects"),                       // 4
            ascii("NSKeyedArchiver"),                // 5
            [0x12, 0x00, 0x01, 0x86, 0xA0],          // 6: 100000
            dictionary([9], [10]),                   // 7: $top = {root: UID 1}
            array([11, 12, 13]),                     // 8: $objects = [$null, #1, #2]
            ascii("root"),                           // 9
            [0x80, 0x01],                            // 10: UID 1
            ascii("$null"),                          // 11: #0
            dictionary([14, 15], [16, 17]),          // 12: #1 = {$class: UID 2, f: …}
            dictionary([18, 19], [20, 21]),          // 13: #2 = {$classname: Thing, $classes: [Thing]}
            ascii("$class"),                         // 14
            ascii("f"),                              // 15
            [0x80, 0x02],                            // 16: UID 2
            array([10, outermost, outermost]),       // 17: f = [UID 1, outermost level, outermost level]
            ascii("$classname"),                     // 18
            ascii("$classes"),                       // 19
            ascii("Thing"),                          // 20
            array([20]),                             // 21: [Thing]
            array([10, 10]),                         // 22: level 1 = [UID 1, UID 1]
        ]
        for level in 2...levels {                    // 23…: level n = [UID 1, level n-1, level n-1]
            objects.append(array([10, 20 + level, 20 + level]))
        }
        var file = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects {
            offsets.append(file.count)
            file += o
        }
        let table = file.count
        file += refs(offsets)
        func be(_ v: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        file += [0, 0, 0, 0, 0, 0, 2, 2] + be(objects.count) + be(0) + be(table)  // trailer
        return Data(file)
    }

    @Test func arraysSharedInsideAFieldAreNotCopiedOut() throws {
        // 2^23 arrays once expanded, from about 500 bytes; reading it used to take gigabytes.
        // The default expansion limit refuses it at once; lifted, the decoder must still keep
        // the sharing.
        let file = Self.sharedArraysArchive(levels: 22)
        #expect(file.count < 600)
        let refusal = #expect(throws: KeyedArchiveError.self) { try KeyedArchive(data: file) }
        #expect(refusal?.underlying?.message.contains("the most a \(file.count)-byte file may stand for") == true)
        var options = KeyedArchiveReadOptions()
        options.propertyList.expansionLimit = .unlimited
        let archive = try KeyedArchive(data: file, options: options)
        guard case .array(let elements)? = archive.rootObject?[field: "f"] else {
            Issue.record("f is not an array of references: \(String(describing: archive.rootObject?[field: "f"]))")
            return
        }
        // The references at the top become references; the nested arrays stay shared plist values.
        #expect(elements.count == 3)
        #expect(elements[0] == .object(uid: 1))
        guard case .inline(.array(let nested)) = elements[1] else {
            Issue.record("the nested array was converted: \(elements[1])")
            return
        }
        #expect(nested.count == 3)
    }

    @Test func arraysSharedPastTheValueLimitAreRefusedByThePropertyListReader() {
        let error = #expect(throws: KeyedArchiveError.self) { try KeyedArchive(data: Self.sharedArraysArchive(levels: 30)) }
        #expect(error?.code == .propertyList)
        #expect(error?.underlying?.code == .limitExceeded)
    }
}
