import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

/// The Codable payload a stored value holds, or will hold once `migrate` has converted it:
/// what `codegen` infers the app's new types from.
///
/// A keyed archive is mapped exactly as `migrate` maps it (the same `PayloadOptions` and
/// `--select`), without the allow-list check, since the point is to write the transformer that
/// accepts it. JSON and property-list payloads are read as they are: they are what an earlier
/// migration wrote.
public struct StoredPayloadExtractor: Sendable {
    public enum Outcome: Sendable {
        /// A keyed archive's payload, with the archive (for the classes a transformer needs).
        case archive(PropertyListValue, KeyedArchive)
        /// A JSON or property-list payload (`kind` says which), read as it is stored.
        case payload(PropertyListValue, StoredValueKind)
        /// SQL NULL: no value to decode.
        case null
        /// Nothing a Codable type decodes (an image, damage, an external file, a bare number),
        /// or an archive that does not map (`kind` is then the archive's); the reason in words.
        case unusable(StoredValueKind, String)
    }

    public var payloadOptions: PayloadOptions
    /// The part of each archive's payload to keep (`.unbox`), as `migrate --select` keeps.
    public var select: PayloadPath?
    public var readOptions: PropertyListReadOptions
    let mapper: PayloadMapper

    public init(payloadOptions: PayloadOptions = PayloadOptions(), select: PayloadPath? = nil,
                readOptions: PropertyListReadOptions = .default) {
        self.payloadOptions = payloadOptions
        self.select = select
        self.readOptions = readOptions
        mapper = PayloadMapper(options: payloadOptions)
    }

    /// The payload of one classified value.
    public func extract(_ stored: StoredValue) -> Outcome {
        switch stored.kind {
        case .null:
            return .null
        case .keyedArchiveBinary, .keyedArchiveXML, .typedStream:
            guard let archive = stored.archive else { return .unusable(stored.kind, "an archive that was not decoded") }
            var payload: PropertyListValue
            do {
                payload = try mapper.payload(of: archive)
            } catch {
                return .unusable(stored.kind, error.message)
            }
            if let select {
                guard let part = select.value(in: payload) else { return .unusable(stored.kind, "the payload has nothing at \(select)") }
                payload = part
            }
            return .archive(payload, archive)
        case .json:
            return read(stored, as: .json)
        case .propertyList:
            return read(stored, as: nil)
        case .text, .other, .image:
            // A bare JSON string, number or bool: what migrate writes for a root of that kind.
            if stored.kind != .image, let bytes = stored.payload, bytes.count < 1 << 20,
               let value = try? JSONPropertyListReader(options: readOptions).read(bytes) {
                return .payload(value, .json)
            }
            var what = stored.detail ?? (stored.kind == .other ? "unrecognized bytes" : stored.kind.label)
            if let bytes = stored.payload { what += ", \(bytes.count) bytes" }
            return .unusable(stored.kind, "not a keyed archive, JSON or property list: \(what)")
        case .externalReference:
            return .unusable(stored.kind, "kept in the external file \(stored.detail ?? "_EXTERNAL_DATA"), outside the store")
        case .unreadable, .number:
            return .unusable(stored.kind, stored.detail ?? stored.kind.label)
        }
    }

    func read(_ stored: StoredValue, as format: PropertyListFormat?) -> Outcome {
        guard let bytes = stored.payload else { return .unusable(stored.kind, "no bytes") }
        do {
            let value: PropertyListValue
            if format == .json {
                value = try JSONPropertyListReader(options: readOptions).read(bytes)
            } else {
                value = try PropertyListReader(options: readOptions).read(bytes).value
            }
            return .payload(value, stored.kind)
        } catch {
            return .unusable(stored.kind, "\(stored.kind.label) that does not read: \(error.description)")
        }
    }
}
