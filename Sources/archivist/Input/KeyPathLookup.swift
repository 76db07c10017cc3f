import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

/// The value `get` and `type` read: at a plutil keypath in the raw property list, or, with
/// `--archive`, at an `unarchive --select` path in a keyed archive's payload.
struct KeyPathLookup {
    var file: String
    var keyPath: String
    var archive: Bool
    var reading: ReadingOptions

    /// The value at the path.
    ///
    /// A binary plist is not read whole: only the objects on the path and in the value are.
    /// - Throws: `CommandFailure` when the file cannot be read or the path names nothing.
    func value(target: PayloadOptions.Target = .propertyList) throws(CommandFailure) -> PropertyListValue {
        let input = InputFile(path: file)
        if archive {
            let decoded = try input.readArchive(reading)
            let payload: PropertyListValue
            do {
                let options = PayloadOptions(target: target, maximumDepth: reading.maximumDepth)
                payload = try PayloadMapper(options: options).payload(of: decoded)
            } catch {
                throw CommandFailure(file: input.displayName, message: error.message)
            }
            let path = PayloadPath(keyPath)
            guard let value = path.value(in: payload) else {
                throw CommandFailure(file: input.displayName, message: "the archive's payload has nothing at \(path)")
            }
            return value
        }
        // Mapped: a binary file's lookup touches only the pages of the objects it reads.
        let data = try input.read(limit: reading.maximumInputSize, mapped: true)
        let path = PropertyListKeyPath(keyPath)
        let found: PropertyListValue?
        do {
            found = try PropertyListReader(options: reading.readOptions).read(data, at: path, fileExtension: input.fileExtension).value
        } catch {
            throw CommandFailure(file: input.displayName, message: Diagnosis.propertyListFailure(error, data: data))
        }
        guard let found else {
            throw CommandFailure(file: input.displayName, message: "no value at \(keyPath)")
        }
        return found
    }
}
