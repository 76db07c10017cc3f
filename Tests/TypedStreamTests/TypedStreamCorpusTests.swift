import Foundation
import Testing
@testable import TypedStream

@Suite(.enabled(if: TypedStreamCorpus.isAvailable, "../shared/corpus/typedstream is absent"))
struct TypedStreamCorpusTests {
    @Test func everyStreamInTheCorpusReadsToItsLastByteInTheByteOrderTheIndexGives() throws {
        #expect(!TypedStreamCorpus.rows.isEmpty, "INDEX.tsv lists no stream")
        var failures: [String] = []
        for row in TypedStreamCorpus.rows {
            let data = try TypedStreamCorpus.data(row.path)
            #expect(TypedStream.isTypedStream(data), "\(row.path)")
            do {
                let stream = try TypedStream(data: data)
                if stream.header.byteOrder.rawValue != row.byteOrder { failures.append("\(row.path): \(stream.header.byteOrder) against \(row.byteOrder)") }
                if stream.header.systemVersion != 1000 { failures.append("\(row.path): system version \(stream.header.systemVersion)") }
                if stream.contents.isEmpty { failures.append("\(row.path): no contents") }
                if stream.objects.contains(where: { $0.classIndex < 0 }) { failures.append("\(row.path): an object without a class") }
            } catch {
                failures.append("\(row.path): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func theEmacsColorListHoldsItsColorsAndTheirNames() throws {
        guard let row = TypedStreamCorpus.rows.first(where: { $0.path.hasSuffix("Emacs.clr") }) else { return }
        let stream = try TypedStream(data: try TypedStreamCorpus.data(row.path))
        // A color list file: its version, then (name, count), then count pairs (color, key).
        #expect(stream.contents[0].encoding == "i")
        #expect(stream.contents[0].values == [.integer(1)])
        #expect(stream.contents[1].encoding == "@i")
        guard case .integer(let count) = stream.contents[1].values[1] else { Issue.record("no count"); return }
        #expect(stream.contents.count == 2 + Int(count))
        let first = stream.contents[2]
        #expect(first.encoding == "@@")
        guard case .object(let color) = first.values[0], case .object(let name) = first.values[1] else { Issue.record("no pair"); return }
        #expect(stream.classChain(of: stream.objects[color]) == ["NSColor", "NSObject"])
        #expect(stream.objects[color].groups.map(\.encoding) == ["c", "ffff"])
        #expect(stream.objects[color].groups[0].values == [.integer(1)])
        #expect(stream.objects[color].groups[1].values[3] == .float(1))
        #expect(stream.objects[name].groups[0].values == [.bytes(Data("LightGreen".utf8))])
        #expect(stream.classes[stream.objects[name].classIndex].version == 1)
    }
}
