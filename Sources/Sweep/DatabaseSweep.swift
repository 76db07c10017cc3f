import ArchivePayload
import CoreDataStore
import Foundation
import KeyedArchive
import PropertyList

/// Sweeps one SQLite database: a record for every cell that holds a property list or an
/// archive (and the documents inside them), then the database's own record with what `scan`
/// says per attribute.
///
/// The database is opened with `StoreConnection.openForReading`, as every verb that only reads
/// a store opens it: a file in a folder is evidence, read where it lies without a byte, a time
/// or a file changing around it (SQLite's `immutable` mode, or a private copy when its `-wal`
/// or `-journal` holds rows). A member of a container is first copied out to the sweep's
/// temporary folder (`TemporaryFolder`), since SQLite reads only files.
struct DatabaseSweep {
    let options: SweepOptions
    let analyzer: DocumentAnalyzer

    /// Scans the database at `path` (the file in a folder, or a container member's copy),
    /// naming items after `displayPath`, the database as found.
    func sweep(at path: String, displayPath: String, size: Int, emit: (SweepItem) -> Void) {
        let scanOptions = ScanOptions(allowList: options.allowList, readOptions: options.readOptions, maximumExamples: 0,
                                      parallelism: 1, workerStackSize: options.workerStackSize)
        let scanner = StoreScanner(options: scanOptions)
        let outcome = withoutActuallyEscaping(emit) { emit in
            Result { () throws(StoreError) -> ScanReport in
                try scanner.scan(path: path, visit: { location, value in
                    cell(value, path: SweepPath.cell(displayPath, table: location.table, column: location.column,
                                                     key: location.keyColumn, value: location.primaryKey), emit: emit)
                })
            }
        }
        let report: ScanReport
        switch outcome {
        case .success(let scanned): report = scanned
        case .failure(let error):
            emit(.unreadable(displayPath, size: size, "SQLite database that does not read: \(Self.reason(error, copy: path))"))
            return
        }
        let rows = report.tables.reduce(0) { $0 + $1.rowCount }
        let summary = report.isCoreData
            ? "Core Data store: \(Self.count(report.entities.count, "entity", "entities")), \(Self.count(rows, "row", "rows"))"
            : "SQLite database: \(Self.count(report.tables.count, "table", "tables")), \(Self.count(rows, "row", "rows"))"
        emit(SweepItem(path: displayPath, kind: report.isCoreData ? .coreDataStore : .sqlite, size: size, summary: summary,
                       attributes: report.columns.map(SweepAttribute.init)))
    }

    /// The record of one cell, when it holds a document.
    func cell(_ value: StoredValue, path: String, emit: (SweepItem) -> Void) {
        let size = value.payload?.count ?? 0
        switch value.kind {
        case .typedStream:
            if let archive = value.archive {
                analyzer.emitArchive(archive, path: path, format: nil, size: size, nesting: 0, emit: emit)
            } else if let payload = value.payload {
                analyzer.analyze(payload, path: path, format: nil, strong: true, emit: emit)
            }
        case .keyedArchiveBinary, .keyedArchiveXML:
            if let archive = value.archive {
                analyzer.emitArchive(archive, path: path, format: value.format ?? .binary, size: size, nesting: 0, emit: emit)
            } else if let payload = value.payload {
                analyzer.analyze(payload, path: path, format: value.format ?? .binary, strong: true, emit: emit)
            }
        case .propertyList:
            if let payload = value.payload { analyzer.analyze(payload, path: path, format: value.format ?? .binary, strong: true, emit: emit) }
        case .json:
            if options.includesJSON, let payload = value.payload { analyzer.analyze(payload, path: path, format: .json, strong: false, emit: emit) }
        case .unreadable:
            emit(.unreadable(path, format: value.format, size: size, value.detail ?? "unreadable"))
        case .image, .externalReference, .other, .text, .number, .null:
            break
        }
    }

    /// The store error's words, without the path it names (the record already does).
    static func reason(_ error: StoreError, copy: String) -> String {
        error.description.replacingOccurrences(of: copy + ": ", with: "").replacingOccurrences(of: copy, with: "the database")
    }

    static func count(_ n: Int, _ one: String, _ many: String) -> String {
        "\(n) \(n == 1 ? one : many)"
    }
}
