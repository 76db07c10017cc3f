import CoreDataStore
import StoreFixtures
import Foundation
import GRDB

/// A fresh folder per test, and stores made in it.
struct TemporaryStore {
    let directory: URL
    let path: String

    /// A BowTie store of `rows` rows (see `BowTieStoreFixture`), changed by `configure`.
    init(rows: Int, name: String = "BowTies.sqlite", configure: (inout BowTieStoreFixture) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("archivist-store-tests-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
        var fixture = BowTieStoreFixture(rowCount: rows)
        configure(&fixture)
        try fixture.write(to: path)
        self.fixture = fixture
    }

    var fixture: BowTieStoreFixture

    /// Opens the store for the test's own checks.
    func open(readonly: Bool = true) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = readonly
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Every `Z_PK` with its tintColor bytes and `Z_OPT`.
    func tintColors() throws -> [(pk: Int64, value: Data?, opt: Int64)] {
        let queue = try open()
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, ZTINTCOLOR, Z_OPT FROM ZBOWTIE ORDER BY Z_PK").map { row in
                (row[0] as Int64, row[1] as Data?, row[2] as Int64)
            }
        }
    }

    /// Overwrites one row's tintColor, as a damaged store would hold it.
    func inject(_ bytes: Data, intoRow pk: Int) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            try db.execute(sql: "UPDATE ZBOWTIE SET ZTINTCOLOR = ? WHERE Z_PK = ?", arguments: [bytes, pk])
        }
    }

    /// The store file's bytes (the main file; WAL content is checkpointed on close).
    func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The Codable struct that replaces UIColor once the attribute holds JSON.
struct Color: Codable, Equatable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double

    /// Equal as the float32 components UIColor keeps.
    func matches(_ other: BowTieStoreFixture.Color) -> Bool {
        Float(red) == Float(other.red) && Float(green) == Float(other.green)
            && Float(blue) == Float(other.blue) && Float(alpha) == Float(other.alpha)
    }
}
