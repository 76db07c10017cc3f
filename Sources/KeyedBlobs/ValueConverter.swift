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

    public let options: ConversionOptions
    let classifier: StoredValueClassifier
    let checker: AllowListChecker
    let verdicts: ClassVerdictCache
    let mapper: PayloadMapper
    let verifier: PayloadVerifier
    let renamer: KeyedArchiveClassRenamer
    /// Outcomes of values already converted, by their bytes: a value stored in many rows is
    /// decoded, converted and verified once.
    let memo = RepeatedValueMemo<Outcome>()

    public init(options: ConversionOptions) {
        self.options = options
        classifier = StoredValueClassifier(readOptions: options.readOptions)
        checker = AllowListChecker(allowList: options.allowList)
        verdicts = ClassVerdictCache(checker: checker)
        var payloadOptions = options.payloadOptions
        payloadOptions.target = options.target.payloadTarget
        mapper = PayloadMapper(options: payloadOptions)
        let format: PayloadVerifier.Format = switch options.target {
        case .json: .json(options.jsonOptions)
        case .propertyList, .archive: .binary
        case .xml: .xml
        }
        verifier = PayloadVerifier(format: format, readOptions: options.readOptions.propertyList)
        renamer = KeyedArchiveClassRenamer(renames: options.classRenames, readOptions: options.readOptions.propertyList)
    }

    /// The outcome for a value stored as bytes (nil for SQL NULL).
    public func convert(_ bytes: Data?, isText: Bool = false) -> Outcome {
        convert(bytes, isText: isText, reader: nil)
    }

    /// `convert(_:isText:)`, reading small archives with `reader`, which keeps what repeats from
    /// one value to the next (one reader per thread).
    package func convert(_ bytes: Data?, isText: Bool = false, reader: SmallArchiveReader?) -> Outcome {
        guard let bytes else { return .skipped(.null) }
        guard StoredValueClassifier.isWorthRemembering(bytes, isText: isText) else {
            return convert(classifier.classifyFresh(bytes, isText: isText, reader: reader))
        }
        return memo.result(for: bytes, isText: isText) { convert(classifier.classifyFresh(bytes, isText: isText, reader: reader)) }
    }

    /// The outcome for a value already classified.
    public func convert(_ stored: StoredValue) -> Outcome {
        if options.target == .archive { return convertToArchive(stored) }
        switch stored.kind {
        case .null:
            return .skipped(.null)
        case .json where options.target == .json:
            return .skipped(.alreadyConverted)
        case .propertyList where options.target != .json:
            return .skipped(.alreadyConverted)
        case .keyedArchiveBinary, .keyedArchiveXML, .typedStream:
            guard let archive = stored.archive else {
                return .failed(.unreadable, "an archive that was not decoded")
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

    /// `.archive`: archives get their classes renamed, payloads are archived.
    func convertToArchive(_ stored: StoredValue) -> Outcome {
        func framed(_ outcome: Outcome) -> Outcome {
            guard case .converted(let bytes) = outcome, stored.framing == .inline else { return outcome }
            return .converted(ExternalBinaryStorage.framedInline(bytes))
        }
        switch stored.kind {
        case .null:
            return .skipped(.null)
        case .keyedArchiveBinary, .keyedArchiveXML:
            guard let archive = stored.archive else { return .failed(.unreadable, "a keyed archive that was not decoded") }
            return framed(rename(archive, format: stored.kind == .keyedArchiveXML ? .xml : .binary))
        case .typedStream:
            guard let archive = stored.archive else { return .failed(.unreadable, "an NSArchiver typedstream that was not decoded") }
            return framed(keyed(archive))
        case .json, .propertyList:
            return framed(archive(payloadBytes: stored.payload ?? Data()))
        case .text where stored.payload.map(Self.isJSONFragment) == true,
             .other where stored.payload.map(Self.isJSONFragment) == true:
            // A string, number or bool: `unarchive --to json` writes such a root as a bare JSON value.
            return framed(archive(payloadBytes: stored.payload ?? Data()))
        case .externalReference:
            return .failed(.externalReference, "the value is in the external file \(stored.reference?.description ?? "_EXTERNAL_DATA"); files outside the store are not rewritten")
        case .unreadable:
            return .failed(.unreadable, stored.detail ?? "unreadable")
        case .image, .other, .text, .number:
            var what = stored.detail ?? stored.kind.label
            if let payload = stored.payload, stored.kind == .other || stored.kind == .text { what += ", \(payload.count) bytes" }
            return .failed(.notAnArchive, "neither a keyed archive nor a JSON or property-list payload: \(what)")
        }
    }

    /// Renames the classes of `archive` (from its raw property list), writes it in `format`, and
    /// checks that the new bytes decode to the same objects under the new names.
    public func rename(_ archive: KeyedArchive, format: PropertyListFormat) -> Outcome {
        guard !renamer.renames.isEmpty else { return .skipped(.alreadyConverted) }
        let result: KeyedArchiveClassRenamer.Result
        do {
            result = try renamer.rewrite(plist: archive.plist, to: format)
        } catch {
            return .failed(.unreadable, error.description)
        }
        guard !result.report.changes.isEmpty else { return .skipped(.nothingToRename) }
        guard let back = try? KeyedArchive(data: result.data, options: options.readOptions),
              archive.isEquivalent(to: back, renamingClasses: renamer.renamed) else {
            return .failed(.verificationFailed, "verification failed: the renamed archive does not decode to the same objects")
        }
        return .converted(result.data)
    }

    /// Archives a JSON or property-list payload with `archiveClasses` (and `classRenames`), and
    /// checks that the bytes decode to exactly the archive meant.
    public func archive(payloadBytes bytes: Data) -> Outcome {
        let payload: PropertyListValue
        let format: PropertyListFormat
        do {
            (payload, format) = try PropertyListReader(options: options.readOptions.propertyList).read(bytes)
        } catch {
            return .failed(.unreadable, "the payload does not read: \(error.description)")
        }
        let archiver = PayloadArchiver(classes: options.archiveClasses, nullMarker: PayloadArchiver.nullMarker(for: format),
                                       maximumDepth: options.payloadOptions.maximumDepth)
        let built: KeyedArchive
        do {
            built = try archiver.archive(payload)
        } catch {
            return .failed(.unmappable, error.message)
        }
        return writeVerified(built, as: "an archive", decodingTo: "the archive does not decode to the objects written")
    }

    /// A typedstream as the keyed archive of the same objects, in Foundation's layout, binary
    /// (what `NSSecureUnarchiveFromData` reads once the model names it), with `classRenames`
    /// applied; verified by reading it back and comparing the objects.
    public func keyed(_ archive: KeyedArchive) -> Outcome {
        writeVerified(archive, as: "a keyed archive", decodingTo: "the keyed archive does not decode to the typedstream's objects")
    }

    /// `archive` written as a binary keyed archive in Foundation's layout, read back and compared
    /// with the objects meant, then with `classRenames` applied: what `archive(payloadBytes:)` and
    /// `keyed(_:)` both return. `kind` and `mismatch` word their failures.
    func writeVerified(_ archive: KeyedArchive, as kind: String, decodingTo mismatch: String) -> Outcome {
        let data: Data
        do {
            data = try KeyedArchiveWriter().write(archive)
        } catch {
            return .failed(.unrepresentable, "cannot be written as \(kind): \(error.description)")
        }
        guard let back = try? KeyedArchive(data: data, options: options.readOptions), archive.isEquivalent(to: back) else {
            return .failed(.verificationFailed, "verification failed: \(mismatch)")
        }
        guard !renamer.renames.isEmpty else { return .converted(data) }
        switch rename(back, format: .binary) {
        case .skipped: return .converted(data)
        case let renamed: return renamed
        }
    }

    /// Converts a decoded archive: allow-list, payload, write, verify.
    public func convert(_ archive: KeyedArchive) -> Outcome {
        if options.target == .archive { return archive.isTypedStream ? keyed(archive) : rename(archive, format: .binary) }
        if !verdicts.accepts(archive) {
            // Refused: the full check names the objects, their paths and the classes to add.
            // (A typedstream's payload is judged by its classes, as a keyed archive's is.)
            let verdict = checker.check(archive)
            if !verdict.classesAccepted {
            let refused = verdict.violationList()
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
            case .archive: return archive.isTypedStream ? keyed(archive) : rename(archive, format: .binary)
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
