import ArchivePayload
import Foundation
import KeyedArchive
@testable import KeyedBlobs
import PropertyList
import Testing

/// A scan reads archives for their classes only (`KeyedArchiveClassIndex`); its report must be
/// the one decoding every object gives, on real archives and on refused ones.
@Suite struct ScanByClassIndexTests {
    /// Every file of the shared corpus (valid or not, archive or plain plist), when it is there.
    static let corpusValues: [(path: String, bytes: Data)] = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let root = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        guard let index = try? String(contentsOf: root.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return [] }
        var lines = index.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first, let pathColumn = header.firstIndex(of: "path") else { return [] }
        lines.removeFirst()
        return lines.compactMap { row in
            guard pathColumn < row.count, let bytes = try? Data(contentsOf: root.appendingPathComponent(row[pathColumn])) else { return nil }
            return (row[pathColumn], bytes)
        }
    }()

    /// Archives built here: a Swift class the default list refuses, nested in an accepted array,
    /// and an accepted color, so that both verdicts and a refusal's paths are compared.
    static let builtValues: [Data] = {
        let writer = KeyedArchiveWriter()
        var refused = KeyedArchiveBuilder()
        let red = refused.number(.real(0.5))
        let item = refused.object("_TtC6OldApp5Color", chain: ["_TtC6OldApp5Color", "NSObject"], fields: [ArchivedField(key: "r", value: red)])
        let list = refused.array([item, refused.string("x")])
        var color = KeyedArchiveBuilder()
        let one = color.number(.real(1))
        let root = color.object("UIColor", chain: ["UIColor", "NSObject"], fields: [ArchivedField(key: "UIRed", value: one)])
        return [
            (try? writer.write(refused.archive(root: list))) ?? Data(),
            (try? writer.write(color.archive(root: root))) ?? Data(),
            (try? writer.write(color.archive(root: root), format: .xml)) ?? Data(),
        ]
    }()

    /// With `reader`, small archives are read in place by one reader, row after row, as scans
    /// and migrations read them.
    static func tally(_ values: [Data], detail: StoredValueClassifier.ArchiveDetail, allowList: AllowList,
                      reader: SmallArchiveReader? = nil) -> ValueTally<Int> {
        let classifier = StoredValueClassifier(archiveDetail: detail)
        let judge = AllowListJudge(allowList: allowList)
        var tally = ValueTally<Int>()
        for (row, bytes) in values.enumerated() {
            tally.record(classifier.classify(bytes, reader: reader), key: row, judge: judge, maximumExamples: 1_000)
        }
        return tally
    }

    static func expectSameReport(_ values: [Data], allowList: AllowList) {
        let byIndex = tally(values, detail: .classes, allowList: allowList)
        let byObjects = tally(values, detail: .objects, allowList: allowList)
        for inPlace in [tally(values, detail: .classes, allowList: allowList, reader: SmallArchiveReader()),
                        tally(values, detail: .objects, allowList: allowList, reader: SmallArchiveReader())] {
            #expect(inPlace.kinds == byIndex.kinds)
            #expect(inPlace.classes == byIndex.classes)
            #expect(inPlace.accepted == byIndex.accepted && inPlace.refused == byIndex.refused)
            #expect(inPlace.refusedClasses == byIndex.refusedClasses && inPlace.suggestionCounts == byIndex.suggestionCounts)
            #expect(inPlace.examples == byIndex.examples)
        }
        #expect(byIndex.rowCount == values.count)
        #expect(byIndex.kinds == byObjects.kinds)
        #expect(byIndex.formats == byObjects.formats)
        #expect(byIndex.classes == byObjects.classes)
        #expect(byIndex.accepted == byObjects.accepted)
        #expect(byIndex.refused == byObjects.refused)
        #expect(byIndex.refusedClasses == byObjects.refusedClasses)
        #expect(byIndex.suggestionCounts == byObjects.suggestionCounts)
        #expect(byIndex.examples == byObjects.examples)
    }

    @Test func aBinaryArchiveReadForItsClassesCarriesTheIndexAndNotTheObjects() throws {
        let stored = StoredValueClassifier(archiveDetail: .classes).classify(Self.builtValues[1])
        #expect(stored.kind == .keyedArchiveBinary)
        #expect(stored.archive == nil)
        #expect(stored.classIndex?.classes.map(\.name) == ["UIColor"])
    }

    @Test func refusedAndAcceptedArchivesGetTheSameReportFromTheirClassesAsFromTheirObjects() throws {
        Self.expectSameReport(Self.builtValues, allowList: .transformerDefault)
        let report = Self.tally(Self.builtValues, detail: .classes, allowList: .transformerDefault)
        #expect(report.refused == 3)
        #expect(report.refusedClasses == ["OldApp.Color": 1, "UIColor": 2])
        #expect(report.examples.first?.message.contains("OldApp.Color at") == true)
        let allowing = Self.tally(Self.builtValues, detail: .classes, allowList: .transformerDefault(adding: ["UIColor", "_TtC6OldApp5Color"]))
        #expect(allowing.accepted == 3)
    }

    @Test(.enabled(if: !corpusValues.isEmpty, "../shared/corpus is absent"))
    func everyCorpusFileGetsTheSameReportFromItsClassesAsFromItsObjects() {
        #expect(Self.corpusValues.count > 500)
        let values = Self.corpusValues.map(\.bytes)
        Self.expectSameReport(values, allowList: .transformerDefault)
        Self.expectSameReport(values, allowList: AllowList(classes: ["NSObject"]))
        Self.expectSameReport(values, allowList: AllowList(classes: AllowList.transformerDefaultClasses + ["NSColor"], trustsArchiveHierarchy: true))
        // The corpus holds archives the class index reads and others it leaves to the decoder.
        let indexed = values.filter { StoredValueClassifier(archiveDetail: .classes).classify($0).classIndex != nil }
        #expect(indexed.count > 50)
    }

    @Test func colorsRowAfterRowCountedFromTheirSharedIndexAreCountedAsOneByOne() {
        // Distinct colors, each read in place: one index after another, the tally's summary of
        // the last index stands for the next, accepted or refused, as a fresh count would.
        var values: [Data] = []
        for i in 0..<300 {
            var builder = KeyedArchiveBuilder()
            let root = builder.uiColor(red: Double(i % 256) / 255, green: 0.5, blue: Double(i / 256) / 255, alpha: 1)
            values.append((try? KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)) ?? Data())
            if i % 50 == 0 { values.append(Self.builtValues[0]) }
        }
        for list in [AllowList.transformerDefault, .transformerDefault(adding: ["UIColor"])] {
            Self.expectSameReport(values, allowList: list)
        }
        let refused = Self.tally(values, detail: .classes, allowList: .transformerDefault, reader: SmallArchiveReader())
        #expect(refused.refused == 306)
        #expect(refused.classes["UIColor"] == 300)
    }

    @Test func valuesToldApartByTheirFirstBytesGetWhatTheFullClassificationGives() {
        // Every first byte, after Core Data's inline header or not, as text and as a BLOB, at
        // several lengths (HEIC's `ftyp` at byte 4 included).
        let classifier = StoredValueClassifier(archiveDetail: .classes)
        var state: UInt64 = 0x5851_F42D_4C95_7F2D
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        var told = 0
        for first in 0...255 {
            for length in [1, 2, 8, 16, 40] {
                var bytes = [UInt8(first)] + (1..<length).map { _ in next() }
                if length == 16, first % 3 == 0 { bytes.replaceSubrange(4..<8, with: Array("ftyp".utf8)) }
                for isText in [false, true] {
                    let data = Data(bytes)
                    let quick = classifier.classify(data, isText: isText, reader: nil)
                    let full = classifier.classifyFresh(data, isText: isText)
                    #expect(quick.kind == full.kind && quick.detail == full.detail && quick.payload == full.payload && quick.framing == full.framing,
                            "first byte \(first), \(length) bytes")
                    if data.withUnsafeBytes(StoredValueClassifier.isPlainByFirstBytes) { told += 1 }
                }
            }
        }
        #expect(told > 2_000)
    }

    @Test func formatsAndKindsCountedInRunsAreTheCountsOfEveryValue() {
        var tally = ValueTally<Int>()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let values: [StoredValue] = [
            StoredValue(kind: .other, payload: Data(count: 16)), StoredValue(kind: .other, payload: Data(count: 16)),
            StoredValue(kind: .image, detail: "PNG image 8×8", payload: png), StoredValue(kind: .other, payload: Data(count: 16)),
            StoredValue(kind: .image, detail: "PNG image 9×9", payload: png), StoredValue(kind: .image, detail: "PNG image 8×8", payload: png),
            StoredValue(kind: .other, payload: Data(count: 3)), StoredValue(kind: .null), StoredValue(kind: .text, payload: Data("a".utf8)),
        ]
        for (row, value) in values.enumerated() { tally.record(value, key: row, judge: nil, maximumExamples: 5) }
        #expect(tally.formats == ["16 bytes (a UUID's size)": 3, "PNG image": 3, "unrecognized bytes": 1])
        #expect(tally.kinds == [.other: 4, .image: 3, .null: 1, .text: 1])
        var other = ValueTally<Int>()
        other.record(StoredValue(kind: .image, detail: "PNG image 1×1", payload: png), key: 99, judge: nil, maximumExamples: 5)
        tally.merge(other, maximumExamples: 5)
        #expect(tally.formats["PNG image"] == 4)
        #expect(tally.kindCounts.map(\.kind) == [.image, .other, .text, .null])
        tally.kinds = [.json: 2]
        #expect(tally.kinds == [.json: 2] && tally.rowCount == 10)
    }

    @Test func aStoredValueKeepsItsArchiveAndOptionsAsGiven() throws {
        var options = KeyedArchiveReadOptions()
        options.topKey = "$0"
        var value = StoredValue(kind: .keyedArchiveBinary, readOptions: options)
        #expect(value.readOptions == options && value.archive == nil)
        let archive = try KeyedArchive(data: Self.builtValues[1])
        value.archive = archive
        #expect(value.archive == archive && value.readOptions == options)
        value.readOptions = nil
        #expect(value.archive == archive && value.readOptions == nil)
        #expect(StoredValue(kind: .null).archive == nil && StoredValue(kind: .null).readOptions == nil)
        #expect(StoredValueClassifier(archiveDetail: .classes).classify(Self.builtValues[1]).readOptions == .default)
    }

    @Test func kindsSortInTheOrderReportsListThem() {
        #expect(StoredValueKind.allCases.reversed().sorted() == StoredValueKind.allCases)
        #expect(Set(StoredValueKind.allCases).count == StoredValueKind.allCases.count)
    }

    @Test func onlyValuesThatAreParsedAreWorthRemembering() {
        #expect(StoredValueClassifier.isWorthRemembering(Self.builtValues[0], isText: false))
        #expect(StoredValueClassifier.isWorthRemembering(Data([1]) + Self.builtValues[0], isText: false))
        #expect(StoredValueClassifier.isWorthRemembering(Data("<?xml version".utf8), isText: true))
        #expect(StoredValueClassifier.isWorthRemembering(Data("{\"a\": 1}".utf8), isText: true))
        #expect(!StoredValueClassifier.isWorthRemembering(Data("Red Bow Tie 12".utf8), isText: true))
        #expect(!StoredValueClassifier.isWorthRemembering(Data([0x89, 0x50, 0x4E, 0x47]), isText: false))
        #expect(!StoredValueClassifier.isWorthRemembering(Data(), isText: false))
    }

    @Test func aScanRemembersARepeatedValueAndReportsEachRow() {
        let memo = RepeatedValueMemo<StoredValue>()
        let classifier = StoredValueClassifier(archiveDetail: .classes, memo: memo)
        var tally = ValueTally<Int>()
        let judge = AllowListJudge(allowList: .transformerDefault)
        for row in 0..<100 {
            tally.record(classifier.classify(Self.builtValues[row % 2]), key: row, judge: judge, maximumExamples: 10)
        }
        #expect(memo.count == 2)
        #expect(tally.rowCount == 100)
        #expect(tally.kinds == [.keyedArchiveBinary: 100])
        #expect(tally.refused == 100)
        #expect(tally.examples.map(\.key) == [0, 1])
    }
}
