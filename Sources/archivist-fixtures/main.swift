import CoreDataStore
import StoreFixtures
import Foundation
import KeyedArchive
import PostgresFixtures
import PostgresTable
import PropertyList

// archivist-fixtures: writes the hand-built archives in Fixtures/archives/.
//
// They reproduce the blobs real Core Data stores hold (see ../shared/USERS.md) for classes that
// only exist on Apple platforms (UIColor, Swift classes), so they are built field by field with
// KeyedArchiveBuilder, in the layout Apple's archiver uses. Blobs Linux Foundation can make
// itself (a legacy [String] array, a PropertyListEncoder payload) are made by Foundation.
//
//   swift run archivist-fixtures [DIRECTORY]     (default: Fixtures/archives)
//   swift run archivist-fixtures --store PATH [--rows N] [--distinct]   a Core Data BowTie store
//                                 (BowTieStoreFixture; --distinct: every row a tint color and photo
//                                 of its own, none NULL)
//   swift run archivist-fixtures --palette-store PATH [--groups N]   the Palette store, with its own
//                                 Z_MODELCACHE (PaletteStoreFixture)
//   swift run archivist-fixtures --models [DIRECTORY]     Palette.momd, compiled by our own archiver
//                                 (default: Fixtures/models)
//   swift run archivist-fixtures --postgres URL --table NAME [--rows N] [--colors-only [--distinct]]
//       a PostgreSQL table of blobs (MixedBlobTable: the mix the tests use, or UIColor archives only)
//
// The tests regenerate every fixture and compare bytes, so the checked-in files cannot drift.

/// Says how to call this mode, and exits 64.
func usage(_ line: String) -> Never {
    FileHandle.standardError.write(Data("usage: archivist-fixtures \(line)\n".utf8))
    exit(64)
}

/// Runs `write`, prints the line it returns and exits 0; on an error, says it about `target`
/// and exits 1.
func writing(_ target: String, _ write: () throws -> String) -> Never {
    do {
        print(try write())
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("archivist-fixtures: \(target): \(error)\n".utf8))
        exit(1)
    }
}

if let postgresFlag = CommandLine.arguments.firstIndex(of: "--postgres") {
    let arguments = CommandLine.arguments
    func value(_ flag: String) -> String? {
        arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    guard postgresFlag + 1 < arguments.count, let table = value("--table"), value("--rows").map({ Int($0) != nil }) ?? true else {
        usage("--postgres URL --table NAME [--rows N] [--colors-only]")
    }
    let url = PostgresURL(arguments[postgresFlag + 1])
    let rows = value("--rows").flatMap { Int($0) } ?? 100_000
    let fixture = MixedBlobTable(rowCount: rows, colorsOnly: arguments.contains("--colors-only"), distinctColors: arguments.contains("--distinct"))
    writing("\(url)") {
        let connection = try PostgresConnection(url: url)
        try fixture.create(table, on: connection)
        return "wrote \(table) at \(url): \(rows) rows\(fixture.colorsOnly ? " of UIColor archives" : ", mixed")\(fixture.distinctColors ? ", each a color of its own" : "")"
    }
}

if let storeFlag = CommandLine.arguments.firstIndex(of: "--store") {
    let arguments = CommandLine.arguments
    let rowsFlag = arguments.firstIndex(of: "--rows")
    guard storeFlag + 1 < arguments.count, rowsFlag.map({ $0 + 1 < arguments.count && Int(arguments[$0 + 1]) != nil }) ?? true else {
        usage("--store PATH [--rows N] [--distinct]")
    }
    let path = arguments[storeFlag + 1]
    let rows = rowsFlag.flatMap { Int(arguments[$0 + 1]) } ?? 1_000
    writing(path) {
        var fixture = BowTieStoreFixture(rowCount: rows)
        if arguments.contains("--distinct") {
            fixture.distinctColors = true
            fixture.nullTintColorEvery = 0
        }
        try fixture.write(to: path, replacing: true)
        return "wrote \(path): BowTie store with \(rows) rows\(fixture.distinctColors ? ", each a tint color of its own" : "")"
    }
}

if let paletteFlag = CommandLine.arguments.firstIndex(of: "--palette-store") {
    let arguments = CommandLine.arguments
    let groupsFlag = arguments.firstIndex(of: "--groups")
    guard paletteFlag + 1 < arguments.count, groupsFlag.map({ $0 + 1 < arguments.count && Int(arguments[$0 + 1]) != nil }) ?? true else {
        usage("--palette-store PATH [--groups N]")
    }
    let path = arguments[paletteFlag + 1]
    let groups = groupsFlag.flatMap { Int(arguments[$0 + 1]) } ?? 40
    writing(path) {
        try PaletteStoreFixture(groupCount: groups).write(to: path)
        return "wrote \(path): Palette store with \(groups) groups and its model cache"
    }
}

if let modelsFlag = CommandLine.arguments.firstIndex(of: "--models") {
    let arguments = CommandLine.arguments
    let directory = modelsFlag + 1 < arguments.count ? arguments[modelsFlag + 1] : "Fixtures/models"
    let bundle = URL(fileURLWithPath: directory).appendingPathComponent("Palette.momd")
    writing(bundle.path) {
        try CompiledModelFixture.write(to: bundle)
        return "wrote \(bundle.path): \(PaletteModel.versionNames.joined(separator: ", "))"
    }
}

let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Fixtures/archives"
do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for fixture in try ArchiveFixtures.all() {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(fixture.name)
        try fixture.data.write(to: url)
        print("wrote \(url.path) (\(fixture.data.count) bytes): \(fixture.summary)")
    }
} catch {
    FileHandle.standardError.write(Data("archivist-fixtures: \(error)\n".utf8))
    exit(1)
}
