// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Archivist",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PropertyList", targets: ["PropertyList"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .library(name: "ArchivePayload", targets: ["ArchivePayload"]),
        .library(name: "CoreDataStore", targets: ["CoreDataStore"]),
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
            name: "CoreDataStore",
            dependencies: [
                "ArchivePayload",
                "KeyedArchive",
                "PropertyList",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "archivist",
            dependencies: [
                "PropertyList",
                "KeyedArchive",
                "ArchivePayload",
                "CoreDataStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "archivist-bench",
            dependencies: ["PropertyList", "KeyedArchive", "ArchivePayload", "CoreDataStore"]
        ),
        .executableTarget(
            name: "archivist-fixtures",
            dependencies: ["PropertyList", "KeyedArchive", "ArchivePayload", "CoreDataStore"]
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
            name: "CoreDataStoreTests",
            dependencies: [
                "CoreDataStore",
                "ArchivePayload",
                "KeyedArchive",
                "PropertyList",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ArchivistCLITests",
            dependencies: ["PropertyList", "CoreDataStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
