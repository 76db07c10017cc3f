import Foundation
import Testing
import ArchiveReports
@testable import KeyedArchive
import PropertyList
import TypedStream
import TypedStreamFixtures

/// The objects of a typedstream decoded straight from the stream (`TypedStreamObjectBuilder`)
/// are the archive its keyed form gives (`KeyedArchive(keyedFormOf:)`), and so is everything
/// written from it: the inspect JSON in both forms, the tree and the classes. Where the builder
/// gives up, `KeyedArchive(typedStream:)` takes the keyed form, errors included.
struct TypedStreamObjectBuilderTests {
    typealias F = FoundationTypedStreamObjects

    /// The direct archive (nil where the builder gives up) and the keyed form's, of `data`.
    static func both(_ data: Data, options: KeyedArchiveReadOptions = .default) throws -> (direct: KeyedArchive?, keyed: KeyedArchive) {
        let stream = try TypedStream(data: data, options: options.typedStream)
        var builder = TypedStreamObjectBuilder(stream: stream, options: options)
        return (builder.archive(), try KeyedArchive(keyedFormOf: stream, options: options))
    }

    /// The inspect JSON of `archive`, compact or with every member.
    static func inspectJSON(_ archive: KeyedArchive, compact: Bool, pretty: Bool = false) throws -> Data {
        var out = Data()
        try KeyedArchiveJSONExporter(prettyPrinted: pretty, omitsDefaultMembers: compact).write(archive) { out.append(contentsOf: $0) }
        return out
    }

    /// Fails unless the direct archive is there and is the keyed form's, in value and in every
    /// form it is written in.
    static func expectSame(_ data: Data, _ label: String, options: KeyedArchiveReadOptions = .default,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (direct, keyed) = try both(data, options: options)
        guard let direct else {
            Issue.record("the builder gave up on \(label)", sourceLocation: sourceLocation)
            return
        }
        try expectSame(direct, keyed, label, sourceLocation: sourceLocation)
    }

    static func expectSame(_ direct: KeyedArchive, _ keyed: KeyedArchive, _ label: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(direct == keyed, "\(label)", sourceLocation: sourceLocation)
        #expect(direct.objects.count == keyed.objects.count, "\(label)", sourceLocation: sourceLocation)
        for compact in [true, false] {
            #expect(try inspectJSON(direct, compact: compact) == inspectJSON(keyed, compact: compact), "\(label), compact \(compact)",
                    sourceLocation: sourceLocation)
        }
        #expect(try inspectJSON(direct, compact: true, pretty: true) == inspectJSON(keyed, compact: true, pretty: true), "\(label), pretty",
                sourceLocation: sourceLocation)
        var directTree = "", keyedTree = ""
        KeyedArchiveTreePrinterProbe.write(direct, into: &directTree)
        KeyedArchiveTreePrinterProbe.write(keyed, into: &keyedTree)
        #expect(directTree == keyedTree, "\(label)", sourceLocation: sourceLocation)
        #expect(direct.classCounts.map(\.name) == keyed.classCounts.map(\.name), "\(label)", sourceLocation: sourceLocation)
        #expect(direct.classCounts.map(\.count) == keyed.classCounts.map(\.count), "\(label)", sourceLocation: sourceLocation)
    }

    static func stream(_ root: TypedStreamObjectSpec, order: TypedStreamWriter.Order) -> Data {
        var writer = TypedStreamWriter(byteOrder: order)
        writer.writeRoot(root)
        return writer.data
    }

    /// Records of the benchmark's shape (`archivist-bench --only typedstream`): a mutable array
    /// of mutable dictionaries of a mutable string, a real, a date, a color and data, keys
    /// shared.
    static func records(_ count: Int) -> TypedStreamObjectSpec {
        let keys = ["title", "rating", "updated", "color", "note"].map { F.string($0) }
        var elements: [TypedStreamObjectSpec?] = []
        for i in 0..<count {
            let note: [UInt8] = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* (i + 3)) }
            let components: [Float] = [Float(i % 10) / 10, 0.5, 0.25, 1]
            let entries: [(key: TypedStreamObjectSpec, value: TypedStreamObjectSpec?)] = [
                (keys[0], F.mutableString("Record \(i) — é")),
                (keys[1], F.double(Double(i) / 7)),
                (keys[2], F.date(700_000_000 + Double(i) * 37.25)),
                (keys[3], F.color(kind: 1, components: components)),
                (keys[4], F.data(note)),
            ]
            elements.append(F.dictionary(entries, mutable: true))
        }
        return F.array(elements, mutable: true)
    }

    @Test(arguments: [TypedStreamWriter.Order.little, .big])
    func recordsOfTheBenchmarksShapeDecodeDirectlyToTheKeyedFormsArchive(order: TypedStreamWriter.Order) throws {
        try Self.expectSame(Self.stream(Self.records(50), order: order), "records, \(order)")
    }

    @Test(arguments: [TypedStreamWriter.Order.little, .big])
    func foundationValuesDecodeDirectlyToTheKeyedFormsArchive(order: TypedStreamWriter.Order) throws {
        let shared = F.string("shared")
        let elements: [TypedStreamObjectSpec?] = [
            F.string("one"), F.number(2), F.number(-3, encoding: "s"), F.number(-9_000_000_000, encoding: "q"), F.number(4_000_000_000, encoding: "L"),
            F.double(3.5), F.double(.infinity), F.bool(true), F.data([1, 2, 3]), F.data([], mutable: true), F.data([9, 8], mutable: true),
            F.date(12345.5), F.date(-1e12), F.mutableString("mutable"), F.set([F.string("s"), shared]), F.set([]),
            F.range(location: 3, length: 4), F.rect(x: 1, y: 2, width: 3.5, height: 4), shared, shared, nil,
            F.dictionary([(F.string("b"), F.number(1)), (F.string("a"), nil), (shared, shared)], mutable: false),
            F.dictionary([]), F.array([]), F.array([nil, nil], mutable: true),
            F.color(kind: 1, components: [0.2, 0.9960784316, 0.4, 1]), F.color(kind: 2, components: [1, 0, 0, 0.5]),
            F.color(kind: 3, components: [0.5, 1]), F.color(kind: 4, components: [0.25, 0.75]),
            F.color(kind: 5, components: [0.1, 0.2, 0.3, 0.4, 1]),
        ]
        let root = F.array(elements, mutable: true)
        try Self.expectSame(Self.stream(root, order: order), "Foundation values, \(order)")
    }

    /// An object of a class Archivist does not know, with a group of every type code, keeps
    /// them all under `$0`, `$1`…, as the keyed form does.
    @Test(arguments: [TypedStreamWriter.Order.little, .big])
    func everyTypeCodeOfAnUnknownClassDecodesDirectlyToTheKeyedFormsArchive(order: TypedStreamWriter.Order) throws {
        let inner = F.string("inner")
        let groups: [(encoding: String, values: [TypedStreamValueSpec])] = [
            ("c", [.char(-5)]), ("C", [.unsignedChar(250)]), ("s", [.integer(-300)]), ("S", [.integer(65_000)]),
            ("i", [.integer(-70_000)]), ("I", [.integer(-1)]), ("l", [.integer(123)]), ("L", [.integer(4_000_000_000)]),
            ("q", [.integer(-9_000_000_000)]), ("Q", [.integer(-1)]), ("f", [.float(1.5)]), ("f", [.integer(7)]),
            ("d", [.double(-0.1)]), ("d", [.integer(-2)]), ("*", [.cString("a C string")]), ("*", [.cString(nil)]),
            ("*", [.cString("a C string")]),
            (":", [.sharedString("doSomething:")]), ("%", [.sharedString("an atom")]), ("+", [.unsharedString(Array("bytes".utf8))]),
            ("+", [.unsharedString([0xFF, 0xFE])]), ("+", [.unsharedString(nil)]),
            ("#", [.classObject([("Widget", 2), ("NSObject", 0)])]), ("#", [.classObject([])]),
            ("@", [.object(inner)]), ("@", [.object(nil)]), ("^i", [.integer(42)]),
            ("[3i]", [.sequence([.integer(1), .integer(2), .integer(3)])]), ("[4c]", [.bytes([1, 2, 3, 4])]),
            ("[2@]", [.sequence([.object(inner), .object(nil)])]),
            ("{Pair=if}", [.sequence([.integer(5), .float(2.5)])]),
            ("{Refs=@[2{In=@i}]}", [.sequence([.object(inner), .object(F.number(8)), .integer(1), .object(nil), .integer(2)])]),
            ("(U=ic)", [.bytes([1, 2, 3, 4])]), ("ii@", [.integer(1), .integer(2), .object(F.mutableString("m"))]),
        ]
        let custom = TypedStreamObjectSpec([("Custom", 3), ("NSObject", 0)], groups: groups)
        try Self.expectSame(Self.stream(F.array([custom, custom, inner]), order: order), "every type code, \(order)")
    }

    /// Known classes whose groups are not as the class writes them keep their values as `$n`,
    /// and subclasses take their superclass's reader: the same archive either way.
    @Test func knownClassesOfUnexpectedShapesDecodeDirectlyToTheKeyedFormsArchive() throws {
        let elements: [TypedStreamObjectSpec?] = [
            // An array whose count says more elements than follow.
            TypedStreamObjectSpec([("NSArray", 0), ("NSObject", 0)], groups: [("i", [.integer(3)]), ("@", [.object(F.string("x"))])]),
            // A string subclass with a group of its own after NSString's.
            TypedStreamObjectSpec([("MyString", 1), ("NSString", 1), ("NSObject", 0)],
                                  groups: [("+", [.unsharedString(Array("text".utf8))]), ("i", [.integer(9)])]),
            // NSString with groups left over: an object with `NS.string`.
            TypedStreamObjectSpec([("NSString", 1), ("NSObject", 0)],
                                  groups: [("+", [.unsharedString(Array("left".utf8))]), ("d", [.double(1)])]),
            // A color of a kind no reader knows, and one with too few components.
            TypedStreamObjectSpec([("NSColor", 0), ("NSObject", 0)], groups: [("c", [.char(9)])]),
            TypedStreamObjectSpec([("NSColor", 0), ("NSObject", 0)], groups: [("c", [.char(1)]), ("ff", [.float(1), .float(0)])]),
            // A date written as an integer, a number of an unknown type.
            TypedStreamObjectSpec([("NSDate", 0), ("NSObject", 0)], groups: [("d", [.integer(5)])]),
            TypedStreamObjectSpec([("NSNumber", 0), ("NSValue", 0), ("NSObject", 0)],
                                  groups: [("*", [.cString("{S=ii}")]), ("{S=ii}", [.sequence([.integer(1), .integer(2)])])]),
            TypedStreamObjectSpec([("NSObject", 0)]),
        ]
        let root = F.array(elements, mutable: true)
        for order in [TypedStreamWriter.Order.little, .big] {
            try Self.expectSame(Self.stream(root, order: order), "unexpected shapes, \(order)")
        }
    }

    /// A cycle (an array holding itself) and an object met twice decode directly as through
    /// the keyed form.
    @Test func cyclesAndSharedObjectsDecodeDirectlyToTheKeyedFormsArchive() throws {
        let array = F.array([], mutable: true)
        let child = F.dictionary([(F.string("parent"), array)], mutable: true)
        array.groups = [("i", [.integer(3)]), ("@", [.object(child)]), ("@", [.object(array)]), ("@", [.object(child)])]
        try Self.expectSame(Self.stream(array, order: .big), "cycle")
    }

    /// Where the decoder would read another object's keyed form (a URL's strings, an attributed
    /// string's, a catalog color's), or a reader adds objects the stream lacks (runs, a font's
    /// name), the builder gives up and `KeyedArchive(typedStream:)` is the keyed form's.
    @Test func streamsTheBuilderLeavesAreReadThroughTheKeyedForm() throws {
        let attributes = F.dictionary([(F.string("NSColor"), F.color(kind: 3, components: [0, 1]))])
        let cases: [(String, TypedStreamObjectSpec)] = [
            ("a URL", F.url("file.txt", base: F.url("https://example.com/"))),
            ("an attributed string of two runs", F.attributedString(F.string("hello"), runs: [(attributes, 2), (F.dictionary([]), 3)])),
            ("an attributed string of one run", F.attributedString(F.string("hi"), runs: [(attributes, 2)])),
            ("a catalog color", F.namedColor(catalog: "System", name: "red", color: F.color(kind: 2, components: [1, 0, 0, 1]))),
        ]
        for (label, root) in cases {
            let data = Self.stream(root, order: .little)
            let (direct, keyed) = try Self.both(data)
            #expect(direct == nil, "\(label)")
            let archive = try KeyedArchive(data: data)
            try Self.expectSame(archive, keyed, label)
        }
    }

    /// Past the depth limit the builder gives up, and the keyed form's error is the one thrown.
    @Test func aStreamNestedPastTheDepthLimitFailsAsThroughTheKeyedForm() throws {
        var root = F.array([F.string("leaf")])
        for _ in 0..<40 { root = F.array([root]) }
        let data = Self.stream(root, order: .little)
        var options = KeyedArchiveReadOptions.default
        options.maximumDepth = 20
        let (direct, _) = try Self.both(data, options: .default)
        #expect(direct != nil)
        let stream = try TypedStream(data: data)
        var builder = TypedStreamObjectBuilder(stream: stream, options: options)
        #expect(builder.archive() == nil)
        var keyedError: KeyedArchiveError?
        do { _ = try KeyedArchive(keyedFormOf: stream, options: options) } catch { keyedError = error }
        var error: KeyedArchiveError?
        do { _ = try KeyedArchive(data: data, options: options) } catch let e { error = e }
        #expect(error != nil)
        #expect(error?.description == keyedError?.description)
    }

    /// The `$top` key asked for is honoured as the decoder honours it.
    @Test func theTopKeyAskedForIsTheKeyedForms() throws {
        var options = KeyedArchiveReadOptions.default
        options.topKey = "missing"
        try Self.expectSame(Self.stream(Self.records(3), order: .little), "top key", options: options)
    }
}

@Suite(.enabled(if: TypedStreamArchiveCorpus.root != nil, "../shared/corpus/typedstream is absent"))
struct TypedStreamObjectBuilderCorpusTests {
    /// Every stream of the shared corpus gives the keyed form's archive, and its JSON, whether
    /// the builder takes it or leaves it to the keyed form.
    @Test func everyCorpusStreamReadsAsItsKeyedFormDoes() throws {
        let paths = TypedStreamArchiveCorpus.paths
        #expect(!paths.isEmpty)
        var direct = 0
        for path in paths {
            let data = try Data(contentsOf: TypedStreamArchiveCorpus.root!.appendingPathComponent(path))
            let (built, keyed) = try TypedStreamObjectBuilderTests.both(data)
            if built != nil { direct += 1 }
            try TypedStreamObjectBuilderTests.expectSame(try KeyedArchive(data: data), keyed, path)
            if let built { try TypedStreamObjectBuilderTests.expectSame(built, keyed, path) }
        }
        // Most corpus files are nibs, whose objects the builder leaves to the keyed form; the
        // count says how many it took (see docs/typedstreams.md).
        print("TypedStreamObjectBuilder took \(direct) of \(paths.count) corpus streams directly")
    }
}

/// The text tree, as `archivist inspect` prints it, into a string.
enum KeyedArchiveTreePrinterProbe {
    static func write(_ archive: KeyedArchive, into text: inout String) {
        var bytes = Data()
        KeyedArchiveTreePrinter().write(archive) { bytes.append(contentsOf: $0) }
        text = String(decoding: bytes, as: UTF8.self)
    }
}
