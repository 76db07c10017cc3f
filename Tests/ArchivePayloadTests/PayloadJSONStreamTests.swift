import Foundation
import Testing
@testable import ArchivePayload
import KeyedArchive
import PropertyList

/// `unarchive --to json` writes the payload as it walks the archive (`PayloadMapper.json`);
/// it must give the bytes of mapping the payload and writing it, or the same error.
enum PayloadJSONStream {
    static let jsonOptions: [(String, JSONWriteOptions)] = {
        var sorted = JSONWriteOptions()
        sorted.outputFormatting = [.sortedKeys, .prettyPrinted]
        var dates = JSONWriteOptions(dateEncodingStrategy: .iso8601, dataEncodingStrategy: .deferredToData)
        dates.outputFormatting = [.withoutEscapingSlashes]
        let floats = JSONWriteOptions(nonConformingFloatEncodingStrategy: .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))
        return [("default", JSONWriteOptions()), ("sorted and pretty", sorted), ("ISO dates, data as bytes", dates), ("floats as strings", floats)]
    }()

    static let payloadOptions: [(String, PayloadOptions)] = [
        ("default", PayloadOptions()),
        ("expanding, keeping classes", PayloadOptions(keepsClassNames: true, expandsNestedPayloads: true)),
        ("100 values", PayloadOptions(maximumValueCount: 100)),
        ("depth 3", PayloadOptions(maximumDepth: 3)),
        ("breaking cycles", PayloadOptions(breaksCycles: true)),
        ("breaking cycles, expanding, 100 values", PayloadOptions(expandsNestedPayloads: true, maximumValueCount: 100, breaksCycles: true)),
    ]

    /// What differs between streaming and mapping-then-writing `archive`, or nil.
    static func difference(_ archive: KeyedArchive) -> String? {
        for (payloadName, payloadOptions) in payloadOptions {
            let mapper = PayloadMapper(options: payloadOptions)
            for (jsonName, jsonOptions) in jsonOptions {
                let streamed = Result { try mapper.json(of: archive, options: jsonOptions) }
                let written = Result { try JSONPropertyListWriter(options: jsonOptions).write(try mapper.payload(of: archive)) }
                switch (streamed, written) {
                case (.success(let a), .success(let b)) where a == b: continue
                case (.failure(let e), .failure(let f)) where "\(e)" == "\(f)": continue
                default: return "\(payloadName), \(jsonName): \(streamed) / \(written)"
                }
            }
        }
        return nil
    }
}

@Suite struct PayloadJSONStreamTests {
    @Test func everyFixtureStreamsTheBytesOfItsPayload() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixture.directory.path).sorted() {
            guard let archive = try? Fixture.archive(name) else { continue }
            #expect(PayloadJSONStream.difference(archive) == nil, "\(name)")
        }
    }

    @Test func recordsWithNullsCyclesAndEveryKindStreamTheBytesOfTheirPayload() throws {
        var b = KeyedArchiveBuilder()
        let keys = [b.string("id"), b.string("when"), b.string("tags"), b.string("link")]
        var items: [ArchivedValue] = []
        for i in 0..<20 {
            items.append(b.dictionary(keys: keys, values: [
                b.number(i % 3 == 0 ? .real(Double(i) / 3) : .integer(PropertyListInteger(i))),
                b.date(Date(timeIntervalSinceReferenceDate: Double(i) * 1.5)),
                b.array([b.string("a/b"), b.null(), b.data(Data([UInt8(i), 0xFF]))]),
                b.url("item/\(i)", base: b.url("https://example.com/")),
            ]))
        }
        items.append(b.dictionary(keys: [b.number(.integer(PropertyListInteger(1))), b.number(.integer(PropertyListInteger(2)))],
                                  values: [b.string("one"), b.string("two")]))
        items.append(b.dictionary(keys: [b.number(.real(1.5))], values: [b.uuid(UUID())]))
        items.append(b.number(.real(.nan)))
        items.append(b.uiColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
        items.append(b.object("Custom", fields: [ArchivedField(key: "text", value: .inline(.string("x")))]))
        let root = b.array(items)
        let built = b.archive(root: root)
        #expect(PayloadJSONStream.difference(built) == nil)
        // And read back from its bytes, where records share their keys array.
        let archive = try KeyedArchive(data: try KeyedArchiveWriter().write(built))
        #expect(PayloadJSONStream.difference(archive) == nil)
        // A dictionary that contains itself: a cycle either way.
        var c = KeyedArchiveBuilder()
        let loop = c.reserve()
        let key = c.string("self")
        c.define(loop, className: "NSDictionary", fields: [ArchivedField(key: "NS.keys", value: .array([key])),
                                                          ArchivedField(key: "NS.objects", value: .array([loop]))])
        let cyclic = c.archive(root: loop)
        #expect(throws: PayloadError.self) { try PayloadMapper().json(of: cyclic) }
        #expect(PayloadJSONStream.difference(cyclic) == nil)
    }
}

@Suite(.enabled(if: ClassIndexCorpus.root != nil, "../shared/corpus is absent"))
struct PayloadJSONStreamCorpusTests {
    @Test func everyCorpusArchiveStreamsTheBytesOfItsPayload() throws {
        let root = try #require(ClassIndexCorpus.root)
        var failures: [String] = []
        var compared = 0
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for url in files where !url.hasDirectoryPath && !url.path.contains("/stores/") {
            guard let data = try? Data(contentsOf: url), data.count < 4_000_000, let archive = try? KeyedArchive(data: data) else { continue }
            compared += 1
            if let difference = PayloadJSONStream.difference(archive) { failures.append("\(url.lastPathComponent): \(difference)") }
        }
        #expect(compared > 50)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
