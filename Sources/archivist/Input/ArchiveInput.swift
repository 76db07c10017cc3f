import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

extension InputFile {
    /// Checks the input against an allow-list (`AllowListChecker.check(data:options:)`), with
    /// a failure worded as `decodeArchive`'s.
    func checkArchive(_ reading: ReadingOptions, with checker: AllowListChecker) throws(CommandFailure) -> ArchiveCheck {
        let data = try read(limit: reading.maximumInputSize)
        do {
            let checked = try checker.check(data: data, options: reading.archiveReadOptions)
            ProcessLifetime.keep(checked)
            return checked
        } catch {
            throw archiveFailure(error, data: data, reading)
        }
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
            throw archiveFailure(error, data: data, reading)
        }
    }

    /// A decoding failure of `data`, read from this input, in our words.
    func archiveFailure(_ error: KeyedArchiveError, data: Data, _ reading: ReadingOptions) -> CommandFailure {
        // Say what the bytes are when they are not an archive: a PNG, a plain plist…
        if error.code != .propertyList, let plist = try? PropertyListReader(options: reading.readOptions).read(data),
           !KeyedArchive.isKeyedArchive(plist.value) {
            // The decoder's reason already starts "not a keyed archive: "; say it once.
            let reason = error.description.replacingOccurrences(of: "not a keyed archive: ", with: "")
            return CommandFailure(file: displayName, message: "not a keyed archive: a plain \(plist.format) (\(reason))")
        }
        if data.isEmpty { return CommandFailure(file: displayName, message: "empty input: the file has no bytes") }
        if let kind = Diagnosis.foreignContent(data) {
            return CommandFailure(file: displayName, message: "not a keyed archive: \(Diagnosis.describe(kind, size: data.count))")
        }
        return CommandFailure(file: displayName, message: error.description)
    }
}
