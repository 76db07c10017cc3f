// swift-tools-version:6.1
// libFuzzer entry points for Archivist's readers. Build and run them with `scripts/fuzz`;
// see docs/fuzzing.md. Each target is one `LLVMFuzzerTestOneInput` over one code path.
import PackageDescription

let fuzzTargets = [
    "FuzzBinaryPropertyList",
    "FuzzXMLPropertyList",
    "FuzzOpenStepPropertyList",
    "FuzzJSONPropertyList",
    "FuzzKeyedArchive",
    "FuzzCheckAndUnarchive",
    "FuzzTypedStream",
    "FuzzNIBArchive",
    "FuzzBookmark",
    "FuzzSmallArchive",
    "FuzzParity",
]

let package = Package(
    name: "ArchivistFuzzTesting",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Archivist", path: ".."),
    ],
    targets: [
        .target(name: "FuzzDriver"),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzDriver",
                .product(name: "PropertyList", package: "Archivist"),
                .product(name: "PropertyListXML", package: "Archivist"),
                .product(name: "KeyedArchive", package: "Archivist"),
                .product(name: "ArchivePayload", package: "Archivist"),
                .product(name: "ArchiveReports", package: "Archivist"),
                .product(name: "TypedStream", package: "Archivist"),
                .product(name: "NIBArchive", package: "Archivist"),
                .product(name: "Bookmark", package: "Archivist"),
            ]
        )
    },
    swiftLanguageModes: [.v6]
)
