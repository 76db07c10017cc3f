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

let arguments = CommandLine.arguments

/// The word after `flag`, when the flag is given with one.
func value(after flag: String) -> String? {
    arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// The whole number after `flag`: `fallback` when the flag is absent, nil (a usage error) when
/// it is given without one.
func count(after flag: String, default fallback: Int) -> Int? {
    arguments.contains(flag) ? value(after: flag).flatMap { Int($0) } : fallback
}

if arguments.contains("--postgres") {
    guard let url = value(after: "--postgres").map { PostgresURL($0) }, let table = value(after: "--table"),
          let rows = count(after: "--rows", default: 100_000) else {
        usage("--postgres URL --table NAME [--rows N] [--colors-only]")
    }
    let fixture = MixedBlobTable(rowCount: rows, colorsOnly: arguments.contains("--colors-only"), distinctColors: arguments.contains("--distinct"))
    writing("\(url)") {
        let connection = try PostgresConnection(url: url)
        try fixture.create(table, on: connection)
        return "wrote \(table) at \(url): \(rows) rows\(fixture.colorsOnly ? " of UIColor archives" : ", mixed")\(fixture.distinctColors ? ", each a color of its own" : "")"
    }
}

if arguments.contains("--store") {
    guard let path = value(after: "--store"), let rows = count(after: "--rows", default: 1_000) else {
        usage("--store PATH [--rows N] [--distinct]")
    }
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

if arguments.contains("--palette-store") {
    guard let path = value(after: "--palette-store"), let groups = count(after: "--groups", default: 40) else {
        usage("--palette-store PATH [--groups N]")
    }
    writing(path) {
        try PaletteStoreFixture(groupCount: groups).write(to: path)
        return "wrote \(path): Palette store with \(groups) groups and its model cache"
    }
}

if arguments.contains("--models") {
    let bundle = URL(fileURLWithPath: value(after: "--models") ?? "Fixtures/models").appendingPathComponent("Palette.momd")
    writing(bundle.path) {
        try CompiledModelFixture.write(to: bundle)
        return "wrote \(bundle.path): \(PaletteModel.versionNames.joined(separator: ", "))"
    }
}

let directory = arguments.count > 1 ? arguments[1] : "Fixtures/archives"
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
