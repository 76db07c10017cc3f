@testable import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList
import Testing
import TypedStream
import TypedStreamFixtures

/// `unarchive` of a typedstream gives the same bytes whether its objects were decoded straight
/// from the stream (what `KeyedArchive(typedStream:)` does where it can) or through its keyed
/// form (`KeyedArchive(keyedFormOf:)`, the path every stream can take): the payload JSON in
/// each spelling, and the payload as a property list.
struct TypedStreamDirectPayloadTests {
    typealias F = FoundationTypedStreamObjects

    static func expectSamePayloads(_ data: Data, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stream = try TypedStream(data: data)
        let direct = try KeyedArchive(typedStream: stream)
        let keyed = try KeyedArchive(keyedFormOf: stream)
        let spellings: [JSONWriteOptions] = [
            JSONWriteOptions(),
            JSONWriteOptions(outputFormatting: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
        ]
        for options in spellings {
            for payload in [PayloadOptions(), PayloadOptions(keepsClassNames: true)] {
                let mapper = PayloadMapper(options: payload)
                let a = Result { try mapper.json(of: direct, options: options) }
                let b = Result { try mapper.json(of: keyed, options: options) }
                switch (a, b) {
                case (.success(let x), .success(let y)):
                    #expect(x == y, "\(label)", sourceLocation: sourceLocation)
                case (.failure(let x), .failure(let y)):
                    #expect("\(x)" == "\(y)", "\(label)", sourceLocation: sourceLocation)
                default:
                    Issue.record("\(label): one path mapped and the other did not", sourceLocation: sourceLocation)
                }
            }
        }
        let mapper = PayloadMapper(options: PayloadOptions(target: .propertyList))
        #expect((try? mapper.payload(of: direct)) == (try? mapper.payload(of: keyed)), "\(label)", sourceLocation: sourceLocation)
    }

    static func stream(_ root: TypedStreamObjectSpec, order: TypedStreamWriter.Order) -> Data {
        var writer = TypedStreamWriter(byteOrder: order)
        writer.writeRoot(root)
        return writer.data
    }

    @Test(arguments: [TypedStreamWriter.Order.little, .big])
    func recordsGiveTheSamePayloadDecodedDirectlyAsThroughTheKeyedForm(order: TypedStreamWriter.Order) throws {
        let keys = ["title", "rating", "updated", "color", "note"].map { F.string($0) }
        var elements: [TypedStreamObjectSpec?] = []
        for i in 0..<30 {
            let entries: [(key: TypedStreamObjectSpec, value: TypedStreamObjectSpec?)] = [
                (keys[0], F.mutableString("Record \(i) / \"q\"")),
                (keys[1], F.double(Double(i) / 7)),
                (keys[2], F.date(700_000_000 + Double(i) * 37.25)),
                (keys[3], F.color(kind: i % 2 == 0 ? 1 : 3, components: i % 2 == 0 ? [0.25, 0.5, Float(i) / 30, 1] : [0.5, 1])),
                (keys[4], F.data([UInt8(i), 1, 2], mutable: i % 3 == 0)),
            ]
            elements.append(F.dictionary(entries, mutable: true))
        }
        let shared = F.string("shared")
        elements += [shared, shared, F.set([F.number(1), F.bool(false)]), F.rect(x: 1, y: 2, width: 3, height: 4.5), nil, F.array([])]
        try Self.expectSamePayloads(Self.stream(F.array(elements, mutable: true), order: order), "records, \(order)")
    }

    @Test func aCycleGivesTheSameRefusalDecodedDirectlyAsThroughTheKeyedForm() throws {
        let array = F.array([], mutable: true)
        array.groups = [("i", [.integer(2)]), ("@", [.object(F.string("a"))]), ("@", [.object(array)])]
        try Self.expectSamePayloads(Self.stream(array, order: .little), "cycle")
    }
}

@Suite(.enabled(if: TypedStreamDirectPayloadCorpus.root != nil, "../shared/corpus/typedstream is absent"))
struct TypedStreamDirectPayloadCorpusTests {
    @Test func everyCorpusStreamGivesTheSamePayloadDecodedDirectlyAsThroughTheKeyedForm() throws {
        let paths = TypedStreamDirectPayloadCorpus.paths
        #expect(!paths.isEmpty, "INDEX.tsv lists no stream")
        for path in paths {
            let data = try Data(contentsOf: TypedStreamDirectPayloadCorpus.root!.appendingPathComponent(path))
            try TypedStreamDirectPayloadTests.expectSamePayloads(data, path)
        }
    }
}

/// The shared typedstream corpus, listed by its INDEX.tsv.
enum TypedStreamDirectPayloadCorpus {
    static let root: URL? = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus/typedstream")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("INDEX.tsv").path) ? url : nil
    }()

    static let paths: [String] = {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) }
    }()
}

/// `ArchiveUnarchiver.json`, which reads a typedstream of Foundation's value classes straight
/// from its bytes (`KeyedArchive.typedStreamValueTable`), gives the bytes the mapper gives for the
/// archive `KeyedArchive(data:)` decodes, with and without the allow-list check, and refuses
/// what that path refuses.
struct TypedStreamDirectUnarchiveTests {
    typealias F = FoundationTypedStreamObjects

    static func records(_ count: Int, order: TypedStreamWriter.Order) -> Data {
        let keys = ["title", "rating", "updated", "color", "note"].map { F.string($0) }
        var elements: [TypedStreamObjectSpec?] = []
        for i in 0..<count {
            elements.append(F.dictionary([
                (keys[0], F.mutableString("Record \(i) / \"q\" é")),
                (keys[1], F.double(Double(i) / 7)),
                (keys[2], F.date(700_000_000 + Double(i) * 37.25)),
                (keys[3], F.color(kind: i % 2 == 0 ? 1 : 4, components: i % 2 == 0 ? [0.25, 0.5, Float(i) / 30, 1] : [0.5, 0.25])),
                (keys[4], F.data((0..<(i * 40)).map { UInt8(truncatingIfNeeded: $0 &* 7) }, mutable: i % 3 == 0)),
                (F.string("flag"), F.bool(i % 2 == 0)),
                (F.string("empty"), i % 4 == 0 ? nil : F.array([])),
            ], mutable: true))
        }
        var writer = TypedStreamWriter(byteOrder: order)
        writer.writeRoot(F.array(elements, mutable: true))
        return writer.data
    }

    static func expectSameJSON(_ data: Data, _ unarchiver: ArchiveUnarchiver, _ label: String, expectsTable: Bool = true,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(KeyedArchive.typedStreamValueTable(data, options: unarchiver.readOptions)?.archive(options: unarchiver.readOptions) != nil, "\(label): the direct reader gave up",
                sourceLocation: sourceLocation)
        for options in [JSONWriteOptions(), JSONWriteOptions(outputFormatting: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])] {
            let unarchived = Result { try unarchiver.json(of: data, options: options) }
            let direct = unarchived.map(\.value)
            // Written from the value table, in 7-byte pieces: the same bytes.
            var pieces = Data()
            let chunked = Result {
                try unarchiver.json(of: data, options: options, chunkSize: 7, drain: { pieces.append(contentsOf: $0) }, restart: { pieces = Data() })
            }
            if case .success(let whole) = direct, case .success(let streamed) = chunked {
                #expect((streamed.value ?? pieces) == whole, "\(label): in pieces", sourceLocation: sourceLocation)
            }
            if expectsTable, case .success(let u) = unarchived {
                #expect(u.typedStreamTable != nil && u.typedStreamArchive == nil, "\(label): not written from the value table",
                        sourceLocation: sourceLocation)
            }
            var mapping = unarchiver.payloadOptions
            mapping.target = .json
            let ordinary = Result { () throws -> Data in
                let archive = try KeyedArchive(data: data, options: unarchiver.readOptions)
                if let list = unarchiver.allowList {
                    let report = AllowListChecker(allowList: list).check(archive)
                    guard report.classesAccepted else { throw PayloadError(.cycle, "refused") }
                }
                return try PayloadMapper(options: mapping).json(of: archive, options: options)
            }
            switch (direct, ordinary) {
            case (.success(let x), .success(let y)):
                #expect(x == y, "\(label)", sourceLocation: sourceLocation)
            case (.failure, .failure):
                break
            default:
                Issue.record("\(label): one path gave JSON and the other did not", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: [TypedStreamWriter.Order.little, .big])
    func recordsGiveTheSameJSONReadDirectlyAsDecoded(order: TypedStreamWriter.Order) throws {
        let data = Self.records(24, order: order)
        try Self.expectSameJSON(data, ArchiveUnarchiver(allowList: nil), "no check, \(order)")
        try Self.expectSameJSON(data, ArchiveUnarchiver(allowList: .transformerDefault(adding: ["NSColor"])), "NSColor allowed, \(order)")
        var keeping = ArchiveUnarchiver(allowList: nil)
        keeping.payloadOptions.keepsClassNames = true
        try Self.expectSameJSON(data, keeping, "class names kept, \(order)")
    }

    @Test func aRefusedClassIsRefusedAsTheDecodedPathRefusesIt() throws {
        let data = Self.records(3, order: .little)
        let unarchiver = ArchiveUnarchiver(allowList: .transformerDefault)
        #expect(throws: ArchiveUnarchiver.Failure.self) { try unarchiver.json(of: data) }
        do {
            _ = try unarchiver.json(of: data)
        } catch {
            guard case .refused(let report) = error else {
                Issue.record("not a refusal: \(error)")
                return
            }
            #expect(report.violations.map(\.className) == ["NSColor", "NSColor", "NSColor"])
        }
    }

    @Test func aRefusalNamesTheFirstRefusedObjectsAndCountsTheRest() throws {
        // Ten records, each with an NSColor the default list refuses: eight named, two counted.
        let data = Self.records(10, order: .little)
        do {
            _ = try ArchiveUnarchiver(allowList: .transformerDefault).json(of: data)
            Issue.record("ten NSColors were not refused")
        } catch {
            guard case .refused(let report) = error else {
                Issue.record("not a refusal: \(error)")
                return
            }
            #expect(report.violations.count == 10)
            let list = report.violationList(showingUIDs: true)
            #expect(list.hasSuffix(" and 2 more"), "\(list)")
            #expect(list.components(separatedBy: "NSColor (#").count - 1 == AllowListReport.namedViolationLimit, "\(list)")
            let first = try #require(report.violations.first)
            #expect(list.hasPrefix("NSColor (#\(first.uid)) at \(first.path), "), "\(list)")
            #expect(!report.violationList().contains("(#"))
        }
    }

    @Test func aDepthLimitStopsTheDirectPathAsItStopsTheDecodedOne() throws {
        // A depth limit below the records' nesting: the mapping error of the decoded path.
        let data = Self.records(4, order: .little)
        var shallow = ArchiveUnarchiver(allowList: nil)
        shallow.payloadOptions.maximumDepth = 2
        try Self.expectSameJSON(data, shallow, "maximum depth 2", expectsTable: false)
    }
}
