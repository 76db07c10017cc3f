import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

/// Times keyed-archive decoding and writing against Foundation's NSKeyedUnarchiver and
/// NSKeyedArchiver on the same data, in the same run.
struct ArchiveBenchmark: BenchmarkGroup {
    var settings: BenchmarkSettings

    /// `count` records, each an NSDictionary of an id, a name, a score, a date and a tag array:
    /// about 8 objects per record once strings and numbers are uniqued.
    static func records(_ count: Int) -> KeyedArchive {
        var b = KeyedArchiveBuilder()
        let keyNames = ["id", "name", "score", "created", "tags"].map { b.string($0) }
        let tagWords = ["red", "green", "blue", "cyan", "magenta"].map { b.string($0) }
        var items: [ArchivedValue] = []
        items.reserveCapacity(count)
        for i in 0..<count {
            let values: [ArchivedValue] = [
                b.number(.integer(PropertyListInteger(i))),
                b.string("record \(i)"),
                b.number(.real(Double(i % 1000) / 7)),
                b.date(Date(timeIntervalSinceReferenceDate: Double(i) * 60)),
                b.array([tagWords[i % 5], tagWords[(i + 2) % 5]]),
            ]
            items.append(b.dictionary(keys: keyNames, values: values))
        }
        let root = b.array(items)
        return b.archive(root: root)
    }

    /// The same records as Foundation objects.
    static func foundationRecords(_ count: Int) -> NSArray {
        let tags = ["red", "green", "blue", "cyan", "magenta"]
        let items = NSMutableArray(capacity: count)
        for i in 0..<count {
            items.add(NSDictionary(dictionary: [
                "id": NSNumber(value: i), "name": "record \(i)", "score": NSNumber(value: Double(i % 1000) / 7),
                "created": Date(timeIntervalSinceReferenceDate: Double(i) * 60),
                "tags": NSArray(array: [tags[i % 5], tags[(i + 2) % 5]]),
            ]))
        }
        return items
    }

    func time(_ repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    func run() -> [PropertyListBenchmark.Row] {
        var rows: [PropertyListBenchmark.Row] = []
        let count = settings.archiveRecords
        log("archives: building \(count) records…")
        let archive = Self.records(count)
        guard let data = try? KeyedArchiveWriter().write(archive) else { return rows }
        let objects = archive.decodedObjects.count
        if let directory = settings.inputsDirectory {
            let url = URL(fileURLWithPath: directory).appendingPathComponent("records.archive.bplist")
            try? data.write(to: url)
            log("wrote \(url.path)")
        }
        let classes: [AnyClass] = [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSDate.self]

        log("archives: decoding \(objects) objects (\(data.count) bytes)…")
        let ours = time(settings.repetitions) { _ = try? KeyedArchive(data: data) }
        let theirs = settings.skipFoundation ? nil : time(1) {
            _ = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data)
        }
        rows.append(.init(operation: "archive decode to typed tree (\(count) records, \(objects) objects, \(mb(data.count)))", ours: ours, foundation: theirs))

        log("archives: decode and export the typed tree as JSON…")
        let toJSON = time(settings.repetitions) {
            guard let archive = try? KeyedArchive(data: data) else { return }
            _ = try? KeyedArchiveJSONExporter().write(archive)
        }
        rows.append(.init(operation: "archive decode + inspect --format json", ours: toJSON, foundation: theirs))

        if let archive = try? KeyedArchive(data: data) {
            // Where the time goes, for the log.
            var report: AllowListReport?
            let check = time(1) { report = AllowListChecker().check(archive) }
            var payload: PropertyListValue?
            let map = time(1) { payload = try? PayloadMapper().payload(of: archive) }
            let write = time(1) { _ = try? JSONPropertyListWriter().write(payload ?? .null) }
            log(String(format: "archives: check %.3f s, map %.3f s, JSON write %.3f s (accepted: %@)", check, map, write, String(describing: report?.isAccepted)))
        }
        log("archives: check and unarchive to a JSON payload…")
        let unarchive = time(settings.repetitions) {
            guard let archive = try? KeyedArchive(data: data) else { return }
            guard AllowListChecker().check(archive).isAccepted else { return }
            guard let payload = try? PayloadMapper().payload(of: archive) else { return }
            _ = try? JSONPropertyListWriter().write(payload)
        }
        rows.append(.init(operation: "archive check + unarchive --to json", ours: unarchive, foundation: theirs))

        let writeCount = settings.archiveWriteRecords
        let small = Self.records(writeCount)
        let smallObjects = small.decodedObjects.count
        log("archives: writing \(smallObjects) objects…")
        let ourWrite = time(settings.repetitions) { _ = try? KeyedArchiveWriter().write(small) }
        let foundationGraph = Self.foundationRecords(writeCount)
        let theirWrite = settings.skipFoundation ? nil : time(1) {
            _ = try? NSKeyedArchiver.archivedData(withRootObject: foundationGraph, requiringSecureCoding: true)
        }
        rows.append(.init(operation: "archive write (\(writeCount) records, \(smallObjects) objects)", ours: ourWrite, foundation: theirWrite))

        // The large archive too, ours only: Foundation's archiver grows faster than linearly.
        log("archives: writing \(objects) objects…")
        let bigWrite = time(settings.repetitions) { _ = try? KeyedArchiveWriter().write(archive) }
        rows.append(.init(operation: "archive write (\(count) records, \(objects) objects)", ours: bigWrite, foundation: nil))
        return rows
    }

    func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
