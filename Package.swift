// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Archivist",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PropertyList", targets: ["PropertyList"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .library(name: "ArchivePayload", targets: ["ArchivePayload"]),
        .library(name: "CoreDataModel", targets: ["CoreDataModel"]),
        .library(name: "KeyedBlobs", targets: ["KeyedBlobs"]),
        .library(name: "CoreDataStore", targets: ["CoreDataStore"]),
        .library(name: "Codegen", targets: ["Codegen"]),
        .library(name: "Sweep", targets: ["Sweep"]),
        .library(name: "PostgresTable", targets: ["PostgresTable"]),
        .executable(name: "archivist", targets: ["archivist"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CLibArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(
            name: "PropertyList",
            dependencies: ["CLibXML2"]
        ),
        .target(
            name: "KeyedArchive",
            dependencies: ["PropertyList"]
        ),
        .target(
            name: "ArchivePayload",
            dependencies: ["KeyedArchive", "PropertyList"]
        ),
        .target(
            name: "CoreDataModel",
            dependencies: ["ArchivePayload", "KeyedArchive", "PropertyList", "CZlib", "CLibXML2"]
        ),
        .target(
            name: "KeyedBlobs",
            dependencies: ["ArchivePayload", "KeyedArchive", "PropertyList"]
        ),
        .target(
            name: "CoreDataStore",
            dependencies: [
                "CoreDataModel",
                "KeyedBlobs",
                "ArchivePayload",
                "KeyedArchive",
                "PropertyList",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "Codegen",
            dependencies: ["PropertyList"]
        ),
        .target(
            name: "Sweep",
            dependencies: ["CoreDataStore", "ArchivePayload", "KeyedArchive", "PropertyList", "CLibArchive"]
        ),
        .target(
            name: "PostgresTable",
            dependencies: ["KeyedBlobs", "ArchivePayload", "KeyedArchive", "PropertyList", "CLibPQ"]
        ),
        .target(
            name: "PostgresFixtures",
            dependencies: ["PostgresTable", "KeyedArchive", "PropertyList"]
        ),
        .executableTarget(
            name: "archivist",
            dependencies: [
                "PropertyList",
                "KeyedArchive",
                "ArchivePayload",
                "CoreDataModel",
                "CoreDataStore",
                "Codegen",
                "Sweep",
                "PostgresTable",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Release builds carry the Swift runtime and Foundation inside the executable: a
            // process then starts without resolving them (about 12 ms less per run) and calls
            // the runtime directly rather than through the PLT. Debug builds link as usual.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        // Store and model fixtures (the BowTie store, the Palette store with its model cache and
        // compiled model): used by archivist-fixtures, the benchmark and the tests; in no product.
        .target(
            name: "StoreFixtures",
            dependencies: [
                "CoreDataModel", "CoreDataStore", "KeyedArchive", "PropertyList", "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "archivist-bench",
            dependencies: [
                "PropertyList", "KeyedArchive", "ArchivePayload", "CoreDataModel", "CoreDataStore", "StoreFixtures",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The differential harness against Core Foundation's reader (docs/parity.md): test
        // support, run by CI; in no product.
        .executableTarget(
            name: "archivist-parity",
            dependencies: ["PropertyList", "KeyedArchive"]
        ),
        .executableTarget(
            name: "archivist-fixtures",
            dependencies: ["PropertyList", "KeyedArchive", "ArchivePayload", "CoreDataStore", "StoreFixtures", "PostgresTable", "PostgresFixtures"]
        ),
        .testTarget(
            name: "PropertyListTests",
            dependencies: ["PropertyList"]
        ),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: ["KeyedArchive", "PropertyList", "archivist-fixtures"]
        ),
        .testTarget(
            name: "ArchivePayloadTests",
            dependencies: ["ArchivePayload", "KeyedArchive", "PropertyList"]
        ),
        .testTarget(
            name: "CoreDataModelTests",
            dependencies: [
                "CoreDataModel", "CoreDataStore", "StoreFixtures", "ArchivePayload", "KeyedArchive", "PropertyList",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "CoreDataStoreTests",
            dependencies: [
                "CoreDataStore",
                "CoreDataModel",
                "StoreFixtures",
                "KeyedBlobs",
                "ArchivePayload",
                "KeyedArchive",
                "PropertyList",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "CodegenTests",
            dependencies: ["Codegen", "PropertyList"]
        ),
        .testTarget(
            name: "SweepTests",
            dependencies: [
                "Sweep",
                "CLibArchive",
                "CoreDataStore",
                "StoreFixtures",
                "KeyedArchive",
                "PropertyList",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "KeyedBlobsTests",
            dependencies: ["KeyedBlobs", "ArchivePayload", "KeyedArchive", "PropertyList"]
        ),
        .testTarget(
            name: "PostgresTableTests",
            dependencies: ["PostgresTable", "PostgresFixtures", "KeyedBlobs", "KeyedArchive", "ArchivePayload", "PropertyList"]
        ),
        .testTarget(
            name: "ArchivistCLITests",
            dependencies: ["PropertyList", "ArchivePayload", "CoreDataModel", "CoreDataStore", "StoreFixtures", "Sweep", "KeyedArchive", "PostgresTable",
                           "PostgresFixtures", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
