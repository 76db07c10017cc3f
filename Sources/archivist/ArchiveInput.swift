import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

extension InputFile {
    /// Reads and decodes the input as a keyed archive.
    func readArchive(_ reading: ReadingOptions, topKey: String? = nil) throws(CommandFailure) -> KeyedArchive {
        let data = try read(limit: reading.maximumInputSize)
        var options = reading.archiveReadOptions
        if let topKey { options.topKey = topKey }
        do {
            return try KeyedArchive(data: data, options: options)
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
