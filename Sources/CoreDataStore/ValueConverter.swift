import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

/// Converts one stored value to the migration's target format, verified, or says why not.
///
/// This is the whole per-row decision of a migration, usable on its own (a backend converting
/// blobs it receives): classify the value, keep NULLs and values already converted, check the
/// archive against the allow-list, map it to a payload, write it, read it back and compare,
/// and put Core Data's inline header back if the value had one.
public struct ValueConverter: Sendable {
    /// What becomes of one value.
    public enum Outcome: Sendable, Hashable {
        /// The new bytes to store.
        case converted(Data)
        case skipped(MigrationSkipReason)
        case failed(MigrationFailureReason, String, suggestedAdditions: [String] = [])
    }

    public let options: MigrationOptions
    let classifier: StoredValueClassifier
    let checker: AllowListChecker
    let verdicts: ClassVerdictCache
    let mapper: PayloadMapper
    let verifier: PayloadVerifier

    public init(options: MigrationOptions) {
        self.options = options
        classifier = StoredValueClassifier(readOptions: options.readOptions)
        checker = AllowListChecker(allowList: options.allowList)
        verdicts = ClassVerdictCache(checker: checker)
        var payloadOptions = options.payloadOptions
        payloadOptions.target = options.target.payloadTarget
        mapper = PayloadMapper(options: payloadOptions)
        let format: PayloadVerifier.Format = switch options.target {
        case .json: .json(options.jsonOptions)
        case .propertyList: .binary
        case .xml: .xml
        }
        verifier = PayloadVerifier(format: format, readOptions: options.readOptions.propertyList)
    }

    /// The outcome for a value stored as bytes (nil for SQL NULL).
    public func convert(_ bytes: Data?, isText: Bool = false) -> Outcome {
        guard let bytes else { return .skipped(.null) }
        return convert(classifier.classify(bytes, isText: isText))
    }

    /// The outcome for a value already classified.
    public func convert(_ stored: StoredValue) -> Outcome {
        switch stored.kind {
        case .null:
            return .skipped(.null)
        case .json where options.target == .json:
            return .skipped(.alreadyConverted)
        case .propertyList where options.target != .json:
            return .skipped(.alreadyConverted)
        case .keyedArchiveBinary, .keyedArchiveXML:
            guard let archive = stored.archive else {
                return .failed(.unreadable, "a keyed archive that was not decoded")
            }
            switch convert(archive) {
            case .converted(let bytes):
                return .converted(stored.framing == .inline ? ExternalBinaryStorage.framedInline(bytes) : bytes)
            case let other:
                return other
            }
        case .externalReference:
            return .failed(.externalReference, "the value is in the external file \(stored.reference?.description ?? "_EXTERNAL_DATA"); files outside the store are not rewritten")
        case .unreadable:
            return .failed(.unreadable, stored.detail ?? "unreadable")
        case .other where options.target == .json && stored.payload.map(Self.isJSONFragment) == true,
             .text where options.target == .json && stored.payload.map(Self.isJSONFragment) == true:
            // A string, number or bool root is written as a bare JSON value, which only parsing
            // recognizes: without this a rerun would call its own output "not an archive".
            return .skipped(.alreadyConverted)
        case .json, .propertyList, .image, .other, .text, .number:
            var what = stored.detail ?? stored.kind.label
            if let payload = stored.payload, stored.kind == .other || stored.kind == .text { what += ", \(payload.count) bytes" }
            return .failed(.notAnArchive, "not a keyed archive: \(what)")
        }
    }

    /// Whether the bytes are one JSON value that is not an object or array (`"text"`, `1.5`, `true`).
    static func isJSONFragment(_ bytes: Data) -> Bool {
        guard bytes.count < 1 << 20 else { return false }
        return (try? JSONPropertyListReader().read(bytes)) != nil
    }

    /// Converts a decoded archive: allow-list, payload, write, verify.
    public func convert(_ archive: KeyedArchive) -> Outcome {
        if !verdicts.accepts(archive) {
            // Refused: the full check names the objects, their paths and the classes to add.
            let verdict = checker.check(archive)
            if !verdict.isAccepted {
            let refused = verdict.violations.map { "\($0.readableClassName) at \($0.path)" }.joined(separator: ", ")
            let flags = verdict.suggestedAdditions.map { "--allow \($0)" }.joined(separator: " ")
            return .failed(.refused, "refused by the allow-list: \(refused)" + (flags.isEmpty ? "" : "; accept with \(flags)"),
                           suggestedAdditions: verdict.suggestedAdditions)
            }
        }
        var payload: PropertyListValue
        do {
            payload = try mapper.payload(of: archive)
        } catch {
            return .failed(.unmappable, error.message)
        }
        if let select = options.select {
            guard let part = select.value(in: payload) else {
                return .failed(.unmappable, "the payload has nothing at \(select)")
            }
            payload = part
        }
        let bytes: Data
        do {
            switch options.target {
            case .json: bytes = try JSONPropertyListWriter(options: options.jsonOptions).write(payload)
            case .propertyList: bytes = BinaryPropertyListWriter().write(payload)
            case .xml: bytes = try XMLPropertyListWriter().write(payload)
            }
        } catch {
            return .failed(.unrepresentable, "cannot be written as \(options.target.rawValue): \(error.description)")
        }
        if let problem = verifier.mismatch(bytes, payload: payload) {
            return .failed(.verificationFailed, "verification failed: \(problem)")
        }
        return .converted(bytes)
    }
}
