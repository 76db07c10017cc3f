import ArchivePayload
import Foundation
import KeyedArchive
import KeyedBlobs
import PropertyList

/// The per-row unit of `scan` and `migrate`, in process, on one thread: N UIColor archives that
/// are all distinct (as a column where nothing repeats), each classified for its classes and
/// counted as a scan does, and each decoded, converted to JSON and verified as a migration does,
/// with no memo. Prints nanoseconds per row, best of `--repeat` runs
/// (`archivist-bench --row-unit N`). What the whole-process figures divide into.
struct RowUnitBenchmark {
    var rows: Int
    var repetitions: Int

    /// `count` UIColor archives, each a color of its own (one 8-bit step per channel).
    static func distinctColors(_ count: Int) -> [Data] {
        (0..<count).map { i in
            func channel(_ shift: Int) -> Double { Double(Float(Double((i >> shift) & 0xFF) / 255)) }
            var builder = KeyedArchiveBuilder()
            let root = builder.uiColor(red: channel(0), green: channel(8), blue: channel(16), alpha: 1)
            return (try? KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)) ?? Data()
        }
    }

    func time(_ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<max(1, repetitions) {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        return best / Double(max(1, rows))
    }

    func run() {
        let values = Self.distinctColors(rows)
        let allowList = AllowList.transformerDefault(adding: ["UIColor"])
        let judge = AllowListJudge(allowList: allowList)
        let classes = StoredValueClassifier(archiveDetail: .classes)
        let objects = StoredValueClassifier(archiveDetail: .objects)
        let converter = ValueConverter(options: ConversionOptions(target: .json, allowList: allowList))
        var sink = 0
        // The reader's results are the ordinary readers' results, or the figures mean nothing.
        let check = SmallArchiveReader()
        for value in values.prefix(1_000) {
            guard let archive = check.archive(value, options: .default), archive == (try? KeyedArchive(data: value)),
                  let index = check.classIndex(value, options: .default), let plain = KeyedArchiveClassIndex(data: value),
                  index.classes == plain.classes, index.slots == plain.slots, index.objectCount == plain.objectCount else {
                print("row unit: SmallArchiveReader disagrees with KeyedArchive(data:) on a value")
                return
            }
        }
        let classify = time {
            let reader = SmallArchiveReader()
            for value in values { sink &+= classes.classify(value, reader: reader).kind == .keyedArchiveBinary ? 1 : 0 }
        }
        let reader = SmallArchiveReader()
        let stored = values.map { classes.classify($0, reader: reader) }
        let tally = time {
            var tally = ValueTally<Int>()
            for (i, value) in stored.enumerated() { tally.record(value, key: i, judge: judge, maximumExamples: 10) }
            sink &+= tally.accepted
        }
        let decode = time {
            let reader = SmallArchiveReader()
            for value in values { sink &+= objects.classify(value, reader: reader).archive == nil ? 0 : 1 }
        }
        let decoded = values.map { objects.classify($0, reader: reader) }
        let convert = time {
            for value in decoded {
                if case .converted(let bytes) = converter.convert(value) { sink &+= bytes.count }
            }
        }
        let whole = time {
            // A fresh converter each run, so its memo starts empty and stands aside as in a column.
            let converter = ValueConverter(options: ConversionOptions(target: .json, allowList: allowList))
            let reader = SmallArchiveReader()
            for value in values {
                if case .converted(let bytes) = converter.convert(value, reader: reader) { sink &+= bytes.count }
            }
        }
        print(String(format: "row unit, %d distinct UIColor archives (%d bytes each), one thread, best of %d, ns per row:", rows, values.first?.count ?? 0, repetitions))
        print(String(format: "  scan:    classify %.0f + tally %.0f = %.0f", classify, tally, classify + tally))
        print(String(format: "  migrate: decode %.0f + convert and verify %.0f = %.0f; through ValueConverter.convert(bytes): %.0f", decode, convert, decode + convert, whole))
        if sink == 42 { print("") }
    }
}
