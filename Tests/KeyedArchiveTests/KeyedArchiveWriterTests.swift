import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

@Suite struct KeyedArchiveWriterTests {
    @Test(.enabled(if: ArchiveCorpus.isAvailable, "../shared/corpus is absent"))
    func everyCorpusArchiveSurvivesADecodeEncodeDecodeRoundTrip() throws {
        let rows = ArchiveCorpus.rows.filter { $0.archive && $0.invalid == "no" }
        var failures: [String] = []
        for row in rows {
            let archive = try KeyedArchive(data: try ArchiveCorpus.data(row.path))
            for format in [PropertyListFormat.binary, .xml] {
                do {
                    let again = try KeyedArchive(data: try KeyedArchiveWriter().write(archive, format: format))
                    if !archive.isEquivalent(to: again) { failures.append("\(row.path) (\(format)): graph differs") }
                } catch {
                    failures.append("\(row.path) (\(format)): \(error)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func objectsAreNumberedInFoundationsOrder() throws {
        // Foundation's own archive of a URL relative to a base: root 1, base 2, its string 3,
        // the NSURL class 4 (after the base's fields), the relative string 5.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/plist/NSKeyedUnarchiver-URLTest.plist")
        let original = try PropertyListReader().read(try Data(contentsOf: url)).value
        let archive = try KeyedArchive(plist: original)
        let rewritten = KeyedArchiveWriter().plist(for: archive)
        #expect(rewritten["$objects"] == original["$objects"])
        #expect(rewritten["$top"] == original["$top"])
    }

    @Test func aSelfReferenceIsWrittenAsACycleAndReadBack() throws {
        var builder = KeyedArchiveBuilder()
        let node = builder.reserve()
        builder.define(node, className: "Node", fields: [
            ArchivedField(key: "name", value: builder.string("loop")),
            ArchivedField(key: "next", value: node),
        ])
        let archive = builder.archive(root: node)
        let data = try KeyedArchiveWriter().write(archive)
        let read = try KeyedArchive(data: data)
        #expect(read.rootObject?[field: "next"] == read.root)
        #expect(read.isEquivalent(to: archive))
    }

    @Test func keysThatStartWithADollarAreEscaped() throws {
        var builder = KeyedArchiveBuilder()
        let root = builder.object("Thing", fields: [
            ArchivedField(key: "$price", value: .inline(.integer(PropertyListInteger(5)))),
            ArchivedField(key: "$0", value: .inline(.integer(PropertyListInteger(1)))),
        ])
        let plist = KeyedArchiveWriter().plist(for: builder.archive(root: root))
        let object = plist["$objects"]?.arrayValue?[1].dictionaryValue
        #expect(object?["$$price"] != nil)
        #expect(object?["$0"] != nil)
        let read = try KeyedArchive(plist: plist)
        #expect(read.rootObject?[field: "$price"] == .inline(.integer(PropertyListInteger(5))))
    }

    @Test func writingIsLinearInTheNumberOfObjects() throws {
        // 100,000 small dictionaries: a quadratic writer would take minutes.
        var builder = KeyedArchiveBuilder()
        var records: [ArchivedValue] = []
        for i in 0..<100_000 {
            let keys = [builder.string("id"), builder.string("name")]
            let values = [builder.number(.integer(PropertyListInteger(i))), builder.string("record \(i % 100)")]
            records.append(builder.dictionary(keys: keys, values: values))
        }
        let root = builder.array(records)
        let archive = builder.archive(root: root)
        let clock = ContinuousClock()
        var data = Data()
        let elapsed = try clock.measure { data = try KeyedArchiveWriter().write(archive) }
        let read = try KeyedArchive(data: data)
        #expect(read.decodedObjects.count == archive.decodedObjects.count)
        // A generous bound for a debug build on a loaded machine; the benchmark measures release.
        #expect(elapsed < .seconds(30))
    }
}
