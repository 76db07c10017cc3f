import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

/// The value `get` and `type` read: at a plutil keypath in the raw property list, or, with
/// `--archive`, at an `unarchive --select` path in a keyed archive's payload; with `--expect`,
/// only of that type.
struct KeyPathLookup {
    var keyPath: String
    var archive: Bool
    var expected: ValueTypeName?
    var reading: ReadingOptions

    /// The value at the path in `bytes`, read from `input`.
    ///
    /// A binary plist is not read whole: only the objects on the path and in the value are.
    /// - Throws: `CommandFailure` when the file cannot be read, the path names nothing or the
    ///   value is not of the type expected.
    func value(in bytes: Data, from input: InputFile, target: PayloadOptions.Target = .propertyList) throws(CommandFailure) -> PropertyListValue {
        let value = try archive ? payloadValue(in: bytes, from: input, target: target) : propertyListValue(in: bytes, from: input)
        if let expected, ValueTypeName(of: value) != expected {
            throw CommandFailure.unexpectedType(ValueTypeName(of: value), expected: expected, at: keyPath, file: input.displayName)
        }
        return value
    }

    /// The value at an `unarchive --select` path in the archive's payload.
    func payloadValue(in bytes: Data, from input: InputFile, target: PayloadOptions.Target) throws(CommandFailure) -> PropertyListValue {
        let decoded = try input.decodeArchive(bytes, reading, topKey: nil)
        let payload: PropertyListValue
        do {
            payload = try PayloadMapper(options: PayloadOptions(target: target, maximumDepth: reading.maximumDepth)).payload(of: decoded)
        } catch {
            throw CommandFailure(file: input.displayName, message: error.message)
        }
        let path = PayloadPath(keyPath)
        guard let value = path.value(in: payload) else {
            throw CommandFailure(file: input.displayName, message: "the archive's payload has nothing at \(path)")
        }
        return value
    }

    /// The value at a plutil keypath in the property list.
    func propertyListValue(in bytes: Data, from input: InputFile) throws(CommandFailure) -> PropertyListValue {
        let found: PropertyListValue?
        do {
            found = try PropertyListReader(options: reading.readOptions).read(bytes, at: PropertyListKeyPath(keyPath), fileExtension: input.fileExtension).value
        } catch {
            throw CommandFailure(file: input.displayName, message: Diagnosis.propertyListFailure(error, data: bytes))
        }
        guard let found else { throw CommandFailure(file: input.displayName, message: "no value at \(keyPath)") }
        return found
    }
}
