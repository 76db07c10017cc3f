import Foundation
import KeyedArchive
import PropertyList

// archivist-fixtures: writes the hand-built archives in Fixtures/archives/.
//
// They reproduce the blobs real Core Data stores hold (see ../shared/USERS.md) for classes that
// only exist on Apple platforms (UIColor, Swift classes), so they are built field by field with
// KeyedArchiveBuilder, in the layout Apple's archiver uses. Blobs Linux Foundation can make
// itself (a legacy [String] array, a PropertyListEncoder payload) are made by Foundation.
//
//   swift run archivist-fixtures [DIRECTORY]     (default: Fixtures/archives)
//
// The tests regenerate every fixture and compare bytes, so the checked-in files cannot drift.

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
