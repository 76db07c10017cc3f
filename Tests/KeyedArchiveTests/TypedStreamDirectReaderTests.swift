import Foundation
import Testing
@testable import KeyedArchive
import PropertyList
import TypedStream
import TypedStreamFixtures

/// A typedstream read straight from its bytes for its JSON (`KeyedArchive.typedStreamValueTable`, its `archive(options:)`,
/// `TypedStreamDirectReader`) gives the objects and the compact inspect JSON that
/// `KeyedArchive(data:)` gives, byte for byte; and it gives up (nil) on every input that this
/// reads otherwise or refuses, so that the ordinary path reports it.
struct TypedStreamDirectReaderTests {
    typealias F = FoundationTypedStreamObjects

    static func stream(_ root: TypedStreamObjectSpec?, order: TypedStreamWriter.Order = .little) -> Data {
        var writer = TypedStreamWriter(byteOrder: order)
        writer.writeGroup("@", [.object(root)])
        return writer.data
    }

    /// The compact inspect JSON of `archive`, as `inspect --format json` writes it.
    static func inspectJSON(_ archive: KeyedArchive, pretty: Bool = false, expanding: Bool = false) throws -> Data {
        var out = Data()
        let exporter = KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: expanding), prettyPrinted: pretty, omitsDefaultMembers: true)
        try exporter.write(archive) { out.append(contentsOf: $0) }
        return out
    }

    /// Fails unless the direct read of `data` is nil where `KeyedArchive(data:options:)` throws,
    /// and otherwise nil or the same objects and JSON. Returns whether it read the stream.
    @discardableResult
    static func expectSameOrGivesUp(_ data: Data, _ label: String, options: KeyedArchiveReadOptions = .default,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let direct = KeyedArchive.typedStreamValueTable(data, options: options)?.archive(options: options)
        let ordinary: KeyedArchive
        do {
            ordinary = try KeyedArchive(data: data, options: options)
        } catch {
            #expect(direct == nil, "\(label): read directly, but the ordinary path refuses it: \(error)", sourceLocation: sourceLocation)
            return false
        }
        guard let direct else { return false }
        // Compared by description, which tells NaNs apart by sign and takes them as equal.
        let same = direct.objects.count == ordinary.objects.count && "\(direct.objects)" == "\(ordinary.objects)"
        #expect(same, "\(label): the objects differ", sourceLocation: sourceLocation)
        #expect(direct.top == ordinary.top && direct.root == ordinary.root, "\(label)", sourceLocation: sourceLocation)
        #expect(direct.typedStream?.header == ordinary.typedStream?.header, "\(label)", sourceLocation: sourceLocation)
        #expect(direct.typedStream?.classes == ordinary.typedStream?.classes, "\(label)", sourceLocation: sourceLocation)
        for (pretty, expanding) in [(false, false), (true, false), (false, true)] {
            let expected = try inspectJSON(ordinary, pretty: pretty, expanding: expanding)
            #expect(try inspectJSON(direct, pretty: pretty, expanding: expanding) == expected,
                    "\(label), pretty \(pretty), expanding \(expanding)", sourceLocation: sourceLocation)
            // Written from the table, without decoded objects, in whole and in 7-byte pieces.
            for chunkSize in [1 << 20, 7] {
                if let written = try tableJSON(data, options: options, pretty: pretty, expanding: expanding, chunkSize: chunkSize) {
                    #expect(written == expected, "\(label), from the table, pretty \(pretty), expanding \(expanding), chunks of \(chunkSize)",
                            sourceLocation: sourceLocation)
                }
            }
        }
        return true
    }

    /// The compact inspect JSON of `data` written from its value table
    /// (`KeyedArchiveJSONExporter.write(_:options:chunkSize:to:)` of a `TypedStreamValueTable`);
    /// nil when the reader or that writer does not take it.
    static func tableJSON(_ data: Data, options: KeyedArchiveReadOptions = .default, pretty: Bool = false, expanding: Bool = false,
                          chunkSize: Int = 1 << 20) throws -> Data? {
        guard let table = KeyedArchive.typedStreamValueTable(data, options: options) else { return nil }
        var out = Data()
        var pieces = 0
        let exporter = KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: expanding), prettyPrinted: pretty, omitsDefaultMembers: true)
        guard try exporter.write(table, options: options, chunkSize: chunkSize, to: { out.append(contentsOf: $0); pieces += 1 }) else {
            #expect(out.isEmpty, "the table writer gave up after writing")
            return nil
        }
        if chunkSize < 64, table.objectCount > 0 { #expect(pieces > 1, "written whole in spite of \(chunkSize)-byte chunks") }
        return out
    }

    /// Records of the benchmark's shape (`archivist-bench --only typedstream`).
    static func records(_ count: Int) -> TypedStreamObjectSpec {
        let keys = ["title", "rating", "updated", "color", "note"].map { F.string($0) }
        var elements: [TypedStreamObjectSpec?] = []
        for i in 0..<count {
            let note: [UInt8] = (0..<(i % 2 == 0 ? 40 : 600)).map { UInt8(truncatingIfNeeded: $0 &* (i + 3)) }
            let entries: [(key: TypedStreamObjectSpec, value: TypedStreamObjectSpec?)] = [
                (keys[0], F.mutableString("Record \(i) — é")),
                (keys[1], F.double(Double(i) / 7)),
                (keys[2], F.date(700_000_000 + Double(i) * 37.25)),
                (keys[3], F.color(kind: 1, components: [Float(i % 10) / 10, 0.5, 0.25, 1])),
                (keys[4], F.data(note)),
            ]
            elements.append(F.dictionary(entries, mutable: true))
        }
        return F.array(elements, mutable: true)
    }

    /// Every value class the direct reader takes, each way it is written.
    static func values() -> TypedStreamObjectSpec {
        let shared = F.string("shared")
        let elements: [TypedStreamObjectSpec?] = [
            F.string("one"), F.string(""), F.number(2), F.number(-3, encoding: "s"), F.number(-9_000_000_000, encoding: "q"),
            F.number(4_000_000_000, encoding: "L"), F.number(-1, encoding: "I"), F.number(70_000, encoding: "l"), F.number(-2, encoding: "Q"),
            F.double(3.5), F.double(.infinity), F.double(.nan), F.bool(true), F.bool(false),
            F.data([1, 2, 3]), F.data([]), F.data([], mutable: true), F.data([9, 8], mutable: true), F.data(Array(repeating: 7, count: 300)),
            F.date(12345.5), F.date(-1e12), F.mutableString("mutable"), shared, shared, nil,
            F.dictionary([(F.string("b"), F.number(1)), (F.string("a"), nil), (shared, shared)], mutable: false),
            F.dictionary([]), F.array([]), F.array([nil, nil], mutable: true), F.array([F.array([shared])]),
            F.color(kind: 1, components: [0.2, 0.9960784316, 0.4, 1]), F.color(kind: 2, components: [1, 0, 0, 0.5]),
            F.color(kind: 3, components: [0.5, 1]), F.color(kind: 4, components: [0.25, 0.75]),
            F.color(kind: 5, components: [0.1, 0.2, 0.3, 0.4, 1]),
            F.color(kind: 2, components: [.nan, -.infinity, -0.0, 0.333333343]), F.color(kind: 1, components: [0.2, 0.2, 0.2, 1]),
            F.color(kind: 5, components: [1e-30, 123456.79, 0.1, 0.7, 0.5]), F.color(kind: 3, components: [1, 1]),
        ]
        return F.array(elements, mutable: true)
    }

    @Test(arguments: [TypedStreamWriter.Order.little, .big])
    func recordsOfTheBenchmarksShapeReadDirectlyToTheSameObjectsAndJSON(order: TypedStreamWriter.Order) throws {
        let data = Self.stream(Self.records(40), order: order)
        #expect(try Self.expectSameOrGivesUp(data, "records, \(order)"), "the direct reader gave up")
        #expect(try Self.tableJSON(data) != nil, "the table writer gave up")
    }

    @Test(arguments: [TypedStreamWriter.Order.little, .big])
    func everyValueClassItTakesReadsDirectlyToTheSameObjectsAndJSON(order: TypedStreamWriter.Order) throws {
        let data = Self.stream(Self.values(), order: order)
        #expect(try Self.expectSameOrGivesUp(data, "values, \(order)"), "the direct reader gave up")
        #expect(try Self.tableJSON(data) != nil, "the table writer gave up")
    }

    @Test func aNilRootAndAStringRootReadDirectly() throws {
        #expect(try Self.expectSameOrGivesUp(Self.stream(nil), "nil root"))
        #expect(try Self.expectSameOrGivesUp(Self.stream(F.string("alone")), "string root"))
    }

    @Test func otherClassesAndLayoutsAreLeftToTheOrdinaryPath() throws {
        let others: [(String, TypedStreamObjectSpec)] = [
            ("a set", F.set([F.string("s")])),
            ("a range", F.range(location: 3, length: 4)),
            ("an array holding a rect", F.array([F.rect(x: 1, y: 2, width: 3, height: 4)])),
            ("a URL", F.url("https://example.com/")),
            ("a catalog color", F.namedColor(catalog: "System", name: "red", color: F.color(kind: 1, components: [1, 0, 0, 1]))),
        ]
        for (label, root) in others {
            let data = Self.stream(root)
            #expect(KeyedArchive.typedStreamValueTable(data) == nil, "\(label)")
            try Self.expectSameOrGivesUp(data, label)
        }
        // Not a typedstream at all.
        #expect(KeyedArchive.typedStreamValueTable(Data("bplist00".utf8)) == nil)
        #expect(KeyedArchive.typedStreamValueTable(Data()) == nil)
    }

    /// Every prefix, and every byte changed to a few values, of a small stream: the direct
    /// reader never takes what the ordinary path refuses, and never differs where both read.
    @Test func truncatedAndCorruptedStreamsAreNeverReadDifferently() throws {
        let data = Self.stream(Self.values())
        var read = 0
        for length in 0..<data.count {
            if try Self.expectSameOrGivesUp(data.prefix(length), "prefix \(length)") { read += 1 }
        }
        #expect(read == 0, "a prefix of the stream read")
        for offset in 13..<data.count {
            for replacement: UInt8 in [0x00, 0x85, 0xFF] where data[offset] != replacement {
                var changed = data
                changed[offset] = replacement
                try Self.expectSameOrGivesUp(changed, "byte \(offset) = \(replacement)")
            }
        }
    }

    /// Limits low enough to stop the stream: the direct reader gives up wherever the ordinary
    /// path throws, and reads the same wherever it does not.
    @Test func limitsStopTheDirectReaderWhereTheyStopTheOrdinaryOne() throws {
        let data = Self.stream(Self.records(6))
        for objects in [1, 10, 30, 60, 100] {
            var options = KeyedArchiveReadOptions.default
            options.typedStream.maximumObjectCount = objects
            try Self.expectSameOrGivesUp(data, "maximumObjectCount \(objects)", options: options)
            options = .default
            options.propertyList.maximumObjectCount = objects
            try Self.expectSameOrGivesUp(data, "propertyList.maximumObjectCount \(objects)", options: options)
        }
        for values in [1, 20, 100, 150, 1000] {
            var options = KeyedArchiveReadOptions.default
            options.typedStream.maximumValueCount = values
            try Self.expectSameOrGivesUp(data, "maximumValueCount \(values)", options: options)
        }
        for depth in [1, 2, 3, 4, 5, 6, 8] {
            var options = KeyedArchiveReadOptions.default
            options.typedStream.maximumDepth = depth
            try Self.expectSameOrGivesUp(data, "typedStream.maximumDepth \(depth)", options: options)
            options = .default
            options.maximumDepth = depth
            try Self.expectSameOrGivesUp(data, "maximumDepth \(depth)", options: options)
        }
        for length in [1, 2, 4] {
            var options = KeyedArchiveReadOptions.default
            options.typedStream.maximumEncodingLength = length
            try Self.expectSameOrGivesUp(data, "maximumEncodingLength \(length)", options: options)
        }
        var options = KeyedArchiveReadOptions.default
        options.topKey = "other"
        try Self.expectSameOrGivesUp(data, "another top key", options: options)
    }

    /// The shared corpus's streams and the repository's fixtures: whatever the direct reader
    /// takes, it reads as the ordinary path does.
    @Test func corpusStreamsAndFixturesReadDirectlyTheSameOrAreLeftToTheOrdinaryPath() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fixtures = try FileManager.default.contentsOfDirectory(at: repo.appendingPathComponent("Fixtures/typedstream"), includingPropertiesForKeys: nil)
        for file in fixtures {
            try Self.expectSameOrGivesUp(try Data(contentsOf: file), file.lastPathComponent)
        }
        let corpus = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus/typedstream")
        guard let index = try? String(contentsOf: corpus.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return }
        let paths = index.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) }
        #expect(!paths.isEmpty, "INDEX.tsv lists no stream")
        var taken = 0, written = 0
        for path in paths {
            let data = try Data(contentsOf: corpus.appendingPathComponent(path))
            if try Self.expectSameOrGivesUp(data, path) { taken += 1 }
            if try Self.tableJSON(data) != nil { written += 1 }
        }
        // Real streams of value classes (the help indexes) are among them: the direct path and
        // the table's writer are held to the ordinary one on real data, not only on generated streams.
        #expect(taken > 0, "the direct reader took none of the corpus's streams")
        #expect(written > 0, "the table writer took none of the corpus's streams")
    }
}
