// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Archivist",
    // The versions that bring `Int128` and `String(validating:as:)`, which the core uses (see
    // docs/architecture.md, "Apple's platforms"); compiled only on Linux so far.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "PropertyList", targets: ["PropertyList"]),
        // Reading XML property lists (libxml2): linking it is enough, every reader then reads XML.
        .library(name: "PropertyListXML", targets: ["PropertyListXML"]),
        .library(name: "TypedStream", targets: ["TypedStream"]),
        .library(name: "NIBArchive", targets: ["NIBArchive"]),
        .library(name: "Bookmark", targets: ["Bookmark"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .library(name: "ArchivePayload", targets: ["ArchivePayload"]),
        .library(name: "ArchiveReports", targets: ["ArchiveReports"]),
        .library(name: "CoreDataModel", targets: ["CoreDataModel"]),
        .library(name: "KeyedBlobs", targets: ["KeyedBlobs"]),
        .library(name: "CoreDataStore", targets: ["CoreDataStore"]),
        .library(name: "Codegen", targets: ["Codegen"]),
        .library(name: "Sweep", targets: ["Sweep"]),
        .library(name: "PostgresTable", targets: ["PostgresTable"]),
        .library(name: "PlistBuddy", targets: ["PlistBuddy"]),
        .library(name: "Plutil", targets: ["Plutil"]),
        .executable(name: "archivist", targets: ["archivist"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // `swift package generate-documentation`: the libraries' DocC catalogs, built by .ci/run.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
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
        // dlopen on first use, for the C libraries only some commands call: the loader the two
        // below share (docs/architecture.md, "Libraries loaded on first use").
        .target(name: "CDynamicLibrary"),
        // libarchive (Debian's libarchive-dev for the headers; libarchive13 at run time) and
        // libpq (libpq-dev; libpq5): their headers, and forwarders to the library opened the
        // first time a command needs it. Nothing links them, so no other command pays for
        // mapping them and the dozens of libraries they pull in.
        .target(name: "CLibArchive", dependencies: ["CDynamicLibrary"]),
        .target(name: "CLibPQ", dependencies: ["CDynamicLibrary"]),
        // The version make stamps into the executable (see its header); empty without make.
        .target(name: "CVersionStamp"),
        // Base64 of whole blocks with AVX2 for the JSON writers; nothing on other CPUs.
        .target(name: "CBase64"),
        // The one door to the operating system: every call that differs between Linux and
        // Darwin (read and write loops, durable writes, temporary files, memory maps, threads,
        // malloc tuning), in no product. See docs/architecture.md.
        .target(name: "SystemInterface"),
        // What every format module shares, below them all: the error codes callers match
        // (`ErrorCode`, `CodedError`). Re-exported by PropertyList, TypedStream, NIBArchive and
        // Bookmark, whose public errors use it; in no product of its own.
        .target(name: "FormatSupport"),
        .target(
            name: "PropertyList",
            dependencies: ["CBase64", "SystemInterface", "FormatSupport"]
        ),
        // Registers PropertyListXML's reader with PropertyList as the image that links it loads
        // (a C constructor), so that linking the module is all a program does to read XML.
        .target(name: "CXMLReaderRegistration"),
        // The XML property-list reader, on libxml2: out of PropertyList so that the archive core
        // builds without libxml2 (docs/architecture.md, "Apple's platforms").
        .target(
            name: "PropertyListXML",
            dependencies: ["PropertyList", "CLibXML2", "CXMLReaderRegistration"]
        ),
        .target(name: "TypedStream", dependencies: ["FormatSupport"]),
        // Compiled nibs (the NIBArchive format ibtool writes) and URL bookmark data (with classic
        // alias records): raw readers that depend on nothing; KeyedArchive maps them.
        .target(name: "NIBArchive", dependencies: ["FormatSupport"]),
        .target(name: "Bookmark", dependencies: ["FormatSupport"]),
        // Small writers of NIBArchives, bookmarks and alias records, for tests and hostile
        // inputs; in no product (Archivist writes neither format).
        .target(name: "BlobFixtures", dependencies: ["NIBArchive", "Bookmark"]),
        // A small NSArchiver writer and Foundation's objects as NSArchiver writes them, for tests,
        // fixtures and the benchmark; in no product (Archivist never writes typedstreams).
        .target(name: "TypedStreamFixtures"),
        // Binary property lists in layouts other writers produce (shared collections, unusual
        // reference widths), for tests and the benchmark; in no product.
        .target(name: "PlistLayoutFixtures", dependencies: ["PropertyList"]),
        // What the fixtures and the tools share: a seeded generator (SplitMix64) and a color as
        // the migrated JSON spells it; in no product.
        .target(name: "FixtureSupport"),
        .target(
            name: "KeyedArchive",
            dependencies: ["PropertyList", "TypedStream", "NIBArchive", "Bookmark"]
        ),
        .target(
            name: "ArchivePayload",
            dependencies: ["KeyedArchive", "PropertyList", "Bookmark"]
        ),
        // How an archive is shown to people: the tree, Graphviz and HTML printers and the HTML
        // assets the inspect and sweep pages share.
        .target(
            name: "ArchiveReports",
            dependencies: ["KeyedArchive", "TypedStream", "PropertyList", "PropertyListXML"]
        ),
        .target(
            name: "CoreDataModel",
            dependencies: ["ArchivePayload", "KeyedArchive", "PropertyList", "PropertyListXML", "CZlib", "CLibXML2"]
        ),
        .target(
            name: "KeyedBlobs",
            dependencies: ["ArchivePayload", "KeyedArchive", "TypedStream", "PropertyList", "PropertyListXML"]
        ),
        .target(
            name: "CoreDataStore",
            dependencies: [
                "CoreDataModel",
                "KeyedBlobs",
                "Codegen",
                "ArchivePayload",
                "KeyedArchive",
                "PropertyList",
                "SystemInterface",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // macOS PlistBuddy's command language (entries, commands, printer) over PropertyList's
        // readers, writers and key path edits; the CLI only connects it to the terminal.
        .target(
            name: "PlistBuddy",
            dependencies: ["PropertyList", "PropertyListXML", "SystemInterface"]
        ),
        // macOS plutil's command line (commands, flags, messages, exit status) over PropertyList's
        // readers and writers; the CLI gives it its files and streams.
        .target(
            name: "Plutil",
            dependencies: ["PropertyList", "PropertyListXML"]
        ),
        .target(
            name: "Codegen",
            dependencies: ["PropertyList"]
        ),
        .target(
            name: "Sweep",
            dependencies: ["CoreDataStore", "ArchivePayload", "ArchiveReports", "KeyedArchive", "TypedStream", "NIBArchive", "Bookmark", "PropertyList", "CLibArchive",
                           "SystemInterface"]
        ),
        .target(
            name: "PostgresTable",
            dependencies: ["KeyedBlobs", "ArchivePayload", "KeyedArchive", "PropertyList", "CLibPQ"]
        ),
        .target(
            name: "PostgresFixtures",
            dependencies: ["PostgresTable", "KeyedArchive", "PropertyList", "FixtureSupport"]
        ),
        .executableTarget(
            name: "archivist",
            dependencies: [
                "PropertyList",
                "PropertyListXML",
                "KeyedArchive",
                "ArchivePayload",
                "ArchiveReports",
                "CoreDataModel",
                "CoreDataStore",
                "Codegen",
                "Sweep",
                "PostgresTable",
                "KeyedBlobs",
                "CVersionStamp",
                "PlistBuddy",
                "Plutil",
                "SystemInterface",
                "Bookmark",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Release builds on Linux carry the Swift runtime, Foundation and Dispatch inside the
            // executable: a process then starts without resolving them (about 12 ms less per
            // run), calls the runtime directly rather than through the PLT, and runs on a machine
            // with no Swift toolchain (`ldd` lists only Debian's C libraries; docs/install.md).
            // Debug builds link as usual; macOS has no static Swift runtime to link.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
        ),
        // Store and model fixtures (the BowTie store, the Palette store with its model cache and
        // compiled model): used by archivist-fixtures, the benchmark and the tests; in no product.
        .target(
            name: "StoreFixtures",
            dependencies: [
                "CoreDataModel", "CoreDataStore", "KeyedArchive", "PropertyList", "CZlib", "TypedStreamFixtures", "FixtureSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "archivist-bench",
            dependencies: [
                "PropertyList", "KeyedArchive", "ArchivePayload", "CoreDataModel", "CoreDataStore", "StoreFixtures", "TypedStreamFixtures", "KeyedBlobs",
                "PlistLayoutFixtures", "FixtureSupport",
                "PostgresTable", "PostgresFixtures",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The differential harness against Core Foundation's reader (docs/parity.md): test
        // support, run by CI; in no product.
        .executableTarget(
            name: "archivist-parity",
            dependencies: ["PropertyList", "PropertyListXML", "KeyedArchive", "SystemInterface", "FixtureSupport"]
        ),
        .executableTarget(
            name: "archivist-fixtures",
            dependencies: ["PropertyList", "KeyedArchive", "ArchivePayload", "CoreDataStore", "StoreFixtures", "PostgresTable", "PostgresFixtures"]
        ),
        .testTarget(
            name: "PropertyListTests",
            dependencies: ["PropertyList", "PropertyListXML", "CBase64", "SystemInterface"]
        ),
        .testTarget(
            name: "SystemInterfaceTests",
            dependencies: ["SystemInterface"]
        ),
        .testTarget(
            name: "TypedStreamTests",
            dependencies: ["TypedStream", "TypedStreamFixtures"]
        ),
        .testTarget(
            name: "NIBArchiveTests",
            dependencies: ["NIBArchive", "BlobFixtures"]
        ),
        .testTarget(
            name: "BookmarkTests",
            dependencies: ["Bookmark", "BlobFixtures"]
        ),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: ["KeyedArchive", "ArchiveReports", "PropertyList", "PropertyListXML", "TypedStream", "TypedStreamFixtures", "archivist-fixtures", "PlistLayoutFixtures",
                           "NIBArchive", "Bookmark", "BlobFixtures"]
        ),
        .testTarget(
            name: "ArchivePayloadTests",
            dependencies: ["ArchivePayload", "ArchiveReports", "KeyedArchive", "PropertyList", "PropertyListXML", "TypedStreamFixtures", "PlistLayoutFixtures"]
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
            name: "PlistBuddyTests",
            dependencies: ["PlistBuddy", "PropertyList"]
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
            ],
            // ContainerBuilder writes its zips and tars with libarchive's writer, which CLibArchive
            // declares (archive.h) but does not forward: the tests link the library itself.
            linkerSettings: [.linkedLibrary("archive")]
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
                           "TypedStreamFixtures", "PlistLayoutFixtures",
                           "PostgresFixtures", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
