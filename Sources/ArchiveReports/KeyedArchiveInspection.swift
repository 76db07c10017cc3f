import Foundation
import KeyedArchive
import PropertyList

/// What `archivist inspect` does: an archive's bytes read as the format asked for needs them,
/// then drawn as a tree (`text`), the JSON document (`json`), a Graphviz graph (`dot`) or one
/// HTML page (`html`).
///
/// The JSON of a large archive is written straight from its object table, without decoding
/// its objects, when the table describes them all (`KeyedArchiveObjectTable`,
/// `KeyedArchiveJSONExporter.write(_:chunkSize:to:)` of a table); every other archive and
/// format is decoded first.
///
/// ```swift
/// let inspection = try #require(KeyedArchiveInspection(format: .json))
/// var read = try inspection.read(blob)
/// try inspection.write(&read) { piece in output.append(contentsOf: piece) }
/// ```
public struct KeyedArchiveInspection: Sendable {
    /// What an archive is drawn as, in the order `archivist inspect` lists them.
    public static let formats: [OutputFormat] = [.text, .json, .dot, .html]

    /// One of `formats`.
    public let format: OutputFormat
    /// Limits for reading the archive, and its `$top` key.
    public var readOptions: KeyedArchiveReadOptions
    /// Decode plists, archives and JSON held in data and show them in place (text and JSON).
    public var expandsNested = false
    /// Color the tree (ANSI; for a terminal).
    public var usesColors = false
    /// Indent the JSON.
    public var prettyPrinted = false
    /// Leave out JSON members at their default value (the compact form, which the object
    /// table can write).
    public var omitsDefaultMembers = true
    /// The page's title (HTML): usually the file's name.
    public var title = ""

    /// An inspection in `format`; nil when it is not one of `formats`.
    public init?(format: OutputFormat, readOptions: KeyedArchiveReadOptions = .default) {
        guard Self.formats.contains(format) else { return nil }
        self.format = format
        self.readOptions = readOptions
    }

    /// An archive as read for an inspection: its object table, or the archive decoded.
    public struct Read {
        let data: Data
        /// The object table the JSON is written from; nil when the archive was decoded.
        public let objectTable: KeyedArchiveObjectTable?
        /// The decoded archive; nil until it is needed when the object table was read.
        public fileprivate(set) var archive: KeyedArchive?
        /// A typedstream read straight from its bytes for its compact JSON
        /// (`KeyedArchive.typedStreamValueTable`), which holds no decoded object.
        var typedStreamTable: TypedStreamValueTable? = nil

        /// The archive's `$top` keys.
        public var topKeys: [String] { objectTable?.top.map(\.key) ?? typedStreamTable?.top.map(\.key) ?? archive?.top.map(\.key) ?? [] }
    }

    /// Why `write` stopped.
    public enum Failure: Error, Sendable {
        /// The archive, decoded only then because its object table did not describe every
        /// object, did not decode.
        case decoding(KeyedArchiveError)
        /// A writer refused a value (a JSON document cannot hold it).
        case writing(PropertyListError)
    }

    /// Reads `data` as this inspection needs it: for JSON, the object table when it reads, and
    /// for the compact JSON of a typedstream, its objects read straight from the stream when
    /// that reader takes it; otherwise the decoded archive.
    ///
    /// - Throws: `KeyedArchiveError` when the bytes are no archive this reads.
    public func read(_ data: Data) throws(KeyedArchiveError) -> Read {
        if format == .json, omitsDefaultMembers, let table = KeyedArchive.typedStreamValueTable(data, options: readOptions) {
            return Read(data: data, objectTable: nil, archive: nil, typedStreamTable: table)
        }
        let table = format == .json ? KeyedArchiveObjectTable(data: data, options: readOptions) : nil
        let archive = table == nil ? try KeyedArchive(data: data, options: readOptions) : nil
        return Read(data: data, objectTable: table, archive: archive)
    }

    /// Hands the drawing of `read` to `emit` in pieces, never whole. The archive is decoded
    /// now (and kept in `read`) when its object table cannot write the JSON.
    public func write(_ read: inout Read, to emit: (UnsafeRawBufferPointer) -> Void) throws(Failure) {
        // Nested documents are read with the same limits, from their own `root`.
        var nestedOptions = readOptions
        nestedOptions.topKey = KeyedArchiveReadOptions.default.topKey
        let nested = NestedPayloadOptions(expands: expandsNested, readOptions: nestedOptions)
        switch format {
        case .json:
            let exporter = KeyedArchiveJSONExporter(nested: nested, prettyPrinted: prettyPrinted, omitsDefaultMembers: omitsDefaultMembers)
            do throws(PropertyListError) {
                if let table = read.objectTable, try exporter.write(table, to: emit) { return }
                if let table = read.typedStreamTable {
                    if try exporter.write(table, options: readOptions, to: emit) { return }
                    if let archive = table.archive(options: readOptions) { return try exporter.write(archive, to: emit) }
                }
            } catch {
                throw .writing(error)
            }
            let archive = try decoded(&read)
            do throws(PropertyListError) {
                try exporter.write(archive, to: emit)
            } catch {
                throw .writing(error)
            }
        case .dot:
            KeyedArchiveDotExporter(nestedReadOptions: nestedOptions.propertyList).write(try decoded(&read), to: emit)
        case .html:
            let archive = try decoded(&read)
            do throws(PropertyListError) {
                try KeyedArchiveHTMLPage(nested: NestedPayloadOptions(expands: false, readOptions: nestedOptions))
                    .write(archive, title: title, to: emit)
            } catch {
                throw .writing(error)
            }
        default:
            KeyedArchiveTreePrinter(usesColors: usesColors, nested: nested).write(try decoded(&read), to: emit)
        }
    }

    /// The decoded archive: `read`'s, or decoded now.
    func decoded(_ read: inout Read) throws(Failure) -> KeyedArchive {
        if let archive = read.archive { return archive }
        do {
            let archive = try KeyedArchive(data: read.data, options: readOptions)
            read.archive = archive
            return archive
        } catch {
            throw .decoding(error)
        }
    }
}
