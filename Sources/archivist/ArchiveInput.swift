import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

extension InputFile {
    /// Reads and decodes the input as a keyed archive.
    func readArchive(_ reading: ReadingOptions, topKey: String? = nil) throws(CommandFailure) -> KeyedArchive {
        try decodeArchive(read(limit: reading.maximumInputSize), reading, topKey: topKey)
    }

    /// Checks the input against an allow-list: from its classes alone when every object passes
    /// (`KeyedArchiveClassIndex`, which builds no object), else from the decoded archive, whose
    /// report names each refused object's path. Gives what `check` prints: the report, the
    /// number of decoded objects and the classes counted.
    func checkArchive(_ reading: ReadingOptions, with checker: AllowListChecker) throws(CommandFailure)
        -> (report: AllowListReport, objectCount: Int, classCounts: [(name: String, count: Int)]) {
        let data = try read(limit: reading.maximumInputSize)
        if let index = KeyedArchiveClassIndex(data: data, options: reading.archiveReadOptions),
           let report = checker.acceptedReport(index) {
            ProcessLifetime.keep(index)
            return (report, index.objectCount, index.classCounts)
        }
        let archive = try decodeArchive(data, reading, topKey: nil)
        // A typedstream's own objects and classes, not those its keyed form adds.
        let objectCount = archive.typedStream?.objects.count ?? archive.decodedObjects.count
        return (checker.check(archive), objectCount, archive.sourceClassCounts)
    }

    /// Decodes `data`, read from this input, as a keyed archive.
    func decodeArchive(_ data: Data, _ reading: ReadingOptions, topKey: String?) throws(CommandFailure) -> KeyedArchive {
        var options = reading.archiveReadOptions
        if let topKey { options.topKey = topKey }
        do {
            let archive = try KeyedArchive(data: data, options: options)
            ProcessLifetime.keep(archive)
            return archive
        } catch {
            // Say what the bytes are when they are not an archive: a PNG, a plain plist…
            if error.code != .propertyList, let plist = try? PropertyListReader(options: reading.readOptions).read(data),
               !KeyedArchive.isKeyedArchive(plist.value) {
                // The decoder's reason already starts "not a keyed archive: "; say it once.
                let reason = error.description.replacingOccurrences(of: "not a keyed archive: ", with: "")
                throw CommandFailure(file: displayName, message: "not a keyed archive: a plain \(plist.format) (\(reason))")
            }
            if data.isEmpty { throw CommandFailure(file: displayName, message: "empty input: the file has no bytes") }
            if let kind = Diagnosis.foreignContent(data) {
                throw CommandFailure(file: displayName, message: "not a keyed archive: \(Diagnosis.describe(kind, size: data.count))")
            }
            throw CommandFailure(file: displayName, message: error.description)
        }
    }
}
