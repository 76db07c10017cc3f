import Foundation
import KeyedArchive
import PropertyList

/// What `archivist unarchive` does with an archive's bytes: decode them, check every object
/// against the allow-list, and give the root's payload, as JSON written while the archive is
/// walked or as a tree (for a property list, or the part at a path).
///
/// The JSON of a large archive is written straight from its object table, without decoding its
/// objects (`PayloadMapper.json(of:options:)` of a `KeyedArchiveObjectTable`), when every
/// object passes the check and is one the table describes; any other archive is decoded,
/// which also says what a refusal or an error is.
///
/// ```swift
/// let unarchiver = ArchiveUnarchiver(allowList: .transformerDefault(adding: ["UIColor"]))
/// let json = try unarchiver.json(of: blob).value      // {"red":1,"green":0.5,"blue":0,"alpha":1}
/// ```
public struct ArchiveUnarchiver: Sendable {
    public var payloadOptions: PayloadOptions
    /// The list every object must pass; nil skips the check. A typedstream's classes are
    /// checked as a keyed archive's are: its archiver is what `check` refuses, not what a payload
    /// of it may hold.
    public var allowList: AllowList?
    /// Limits for reading the archive, and its `$top` key.
    public var readOptions: KeyedArchiveReadOptions

    public init(payloadOptions: PayloadOptions = PayloadOptions(), allowList: AllowList? = .transformerDefault,
                readOptions: KeyedArchiveReadOptions = .default) {
        self.payloadOptions = payloadOptions
        self.allowList = allowList
        self.readOptions = readOptions
    }

    /// Why no payload was given.
    public enum Failure: Error, Sendable {
        /// The bytes are no archive this reads.
        case decoding(KeyedArchiveError)
        /// Objects of classes the list does not allow (the report names them).
        case refused(AllowListReport)
        /// The archive does not map (a cycle, a limit, no root).
        case mapping(PayloadError)
        /// The JSON writer refused a value.
        case writing(PropertyListError)
    }

    /// A payload, with what was read to give it: a caller that frees memory only at exit keeps
    /// these.
    public struct Unarchived<Value> {
        public var value: Value
        /// The object table the JSON was written from, when it was.
        public var objectTable: KeyedArchiveObjectTable?
        /// The decoded archive, when it was decoded.
        public var archive: KeyedArchive?
        /// A typedstream read straight from its bytes for its JSON
        /// (`KeyedArchive.typedStreamValueTable`), and the archive decoded from it when its JSON
        /// was not written from it; kept as the others are.
        var typedStreamTable: TypedStreamValueTable? = nil
        var typedStreamArchive: KeyedArchive? = nil

        /// The same reading with another value.
        func map<T>(_ transform: (Value) -> T) -> Unarchived<T> {
            Unarchived<T>(value: transform(value), objectTable: objectTable, archive: archive, typedStreamTable: typedStreamTable,
                          typedStreamArchive: typedStreamArchive)
        }
    }

    /// The root's payload as JSON, with `options`' spellings.
    ///
    /// - Throws: `Failure`: decoding, a refusal, mapping, or writing.
    public func json(of data: Data, options: JSONWriteOptions = .init()) throws(Failure) -> Unarchived<Data> {
        let mapper = jsonMapper
        let table = KeyedArchiveObjectTable(data: data, options: readOptions)
        if let table, accepts(table), let json = mapper.json(of: table, options: options) {
            return Unarchived(value: json, objectTable: table)
        }
        let streamTable = table == nil ? KeyedArchive.typedStreamValueTable(data, options: readOptions) : nil
        if let streamTable, accepts(streamTable) {
            var written: Data?
            let capacity = min(streamTable.source.count, 1 << 30) * 2 + 4096
            if mapper.writeJSON(of: streamTable, readOptions: readOptions, options: options, capacity: capacity, drain: nil, finished: { written = $0 }),
               let written {
                return Unarchived(value: written, typedStreamTable: streamTable)
            }
        }
        return try decodedJSON(of: data, options: options, mapper: mapper, streamTable: streamTable)
    }

    /// The root's payload as JSON, as `json(of:options:)` gives it, handed to `drain` a chunk
    /// of about `chunkSize` bytes at a time as the archive's object table is walked, so that it
    /// is never held whole: the value is then nil. An archive the walk does not take is decoded
    /// and its JSON given whole; should the walk give up after handing chunks on, `restart` is
    /// called first, for the caller to drop them.
    ///
    /// - Throws: `Failure`, as `json(of:options:)` throws it.
    public func json(of data: Data, options: JSONWriteOptions = .init(), chunkSize: Int = 1 << 20,
                     drain: (UnsafeRawBufferPointer) -> Void, restart: () -> Void) throws(Failure) -> Unarchived<Data?> {
        let mapper = jsonMapper
        let table = KeyedArchiveObjectTable(data: data, options: readOptions)
        if let table, accepts(table) {
            var handedOn = false
            if mapper.writeJSON(of: table, options: options, chunkSize: chunkSize, to: { handedOn = true; drain($0) }) {
                return Unarchived(value: nil, objectTable: table)
            }
            if handedOn { restart() }
        }
        let streamTable = table == nil ? KeyedArchive.typedStreamValueTable(data, options: readOptions) : nil
        if let streamTable, accepts(streamTable) {
            var handedOn = false
            let written = withoutActuallyEscaping(drain) { drain in
                mapper.writeJSON(of: streamTable, readOptions: readOptions, options: options, capacity: chunkSize + 64 << 10, chunkSize: chunkSize,
                                 drain: { handedOn = true; drain($0) }, finished: { _ in })
            }
            if written { return Unarchived(value: nil, typedStreamTable: streamTable) }
            if handedOn { restart() }
        }
        return try decodedJSON(of: data, options: options, mapper: mapper, streamTable: streamTable).map { Optional($0) }
    }

    /// The root's payload as JSON, as `json(of:options:)` gives it, written to `output`: in
    /// pieces as it is written when `output` can drop them again, else whole.
    ///
    /// - Throws: `Failure`, as `json(of:options:)` throws it; `output` may then hold part of
    ///   the JSON, for the caller to drop.
    public func writeJSON(of data: Data, options: JSONWriteOptions = .init(), to output: some UnarchivedJSONOutput) throws(Failure) -> Unarchived<Void> {
        let json = output.canDiscardWritten
            ? try self.json(of: data, options: options, drain: output.write, restart: output.discardWritten)
            : try self.json(of: data, options: options).map { Optional($0) }
        json.value?.withUnsafeBytes { output.write($0) }
        return json.map { _ in () }
    }

    /// The mapper of the JSON payload.
    var jsonMapper: PayloadMapper {
        var mapping = payloadOptions
        mapping.target = .json
        return PayloadMapper(options: mapping)
    }

    /// Whether every object of `table` passes the check, when there is one.
    func accepts(_ table: KeyedArchiveObjectTable) -> Bool {
        allowList.map { AllowListChecker(allowList: $0).acceptedReport(table.index) != nil } ?? true
    }

    /// Whether every object of a typedstream's `table` passes the check, when there is one: the
    /// check refuses no class of it (inline strings, numbers and data are only warned about).
    func accepts(_ table: TypedStreamValueTable) -> Bool {
        allowList.map { AllowListChecker(allowList: $0).acceptsEveryClass(table.descriptions.map(\.archivedClass)) } ?? true
    }

    /// The JSON of what the table walks do not take: the archive decoded from a typedstream of
    /// value classes read straight from its bytes (`streamTable`), or else the archive decoded.
    func decodedJSON(of data: Data, options: JSONWriteOptions, mapper: PayloadMapper, streamTable: TypedStreamValueTable?) throws(Failure) -> Unarchived<Data> {
        // A refused class or a mapping error is left to the ordinary path, which reports it.
        if let streamTable, accepts(streamTable), let archive = streamTable.archive(options: readOptions),
           let json = try? mapper.json(of: archive, options: options) {
            return Unarchived(value: json, typedStreamTable: streamTable, typedStreamArchive: archive)
        }
        let archive = try checked(data)
        do {
            return Unarchived(value: try mapper.json(of: archive, options: options), archive: archive)
        } catch let error as PayloadError {
            throw .mapping(error)
        } catch let error as PropertyListError {
            throw .writing(error)
        } catch {
            throw .writing(PropertyListError(.unrepresentable, "\(error)"))
        }
    }

    /// The root's payload, or with `path` the part there (references within it point within
    /// it); a nil value when nothing is at `path`.
    ///
    /// - Throws: `Failure`: decoding, a refusal, or mapping.
    public func payload(of data: Data, at path: PayloadPath? = nil) throws(Failure) -> Unarchived<PropertyListValue?> {
        let archive = try checked(data)
        let mapper = PayloadMapper(options: payloadOptions)
        do throws(PayloadError) {
            let value = if let path { try mapper.payload(of: archive, at: path) } else { try mapper.payload(of: archive) }
            return Unarchived(value: value, archive: archive)
        } catch {
            throw .mapping(error)
        }
    }

    /// The decoded archive, when every object passes the check.
    func checked(_ data: Data) throws(Failure) -> KeyedArchive {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data, options: readOptions)
        } catch {
            throw .decoding(error)
        }
        if let allowList {
            let report = AllowListChecker(allowList: allowList).check(archive)
            guard report.classesAccepted else { throw .refused(report) }
        }
        return archive
    }
}
