import Foundation
import PropertyList
import Testing
@testable import Sweep

/// A sweep whose output can no longer be written (a full disk, `| head` gone) stops reading.
@Suite struct SweepStopTests {
    @Test func aSweepAskedToStopReadsNoMoreFilesAndEmitsNoMoreItems() throws {
        // 400 small binary plists, written here: each is an item of its own.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-sweep-stop-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for n in 0..<400 {
            let plist = BinaryPropertyListWriter().write(.dictionary(PropertyListDictionary(keys: [.string("n")], values: [.integer(PropertyListInteger(n))])))
            try plist.write(to: URL(fileURLWithPath: folder + String(format: "/%03d.plist", n)))
        }
        let sweeper = Sweeper(options: SweepOptions(jobs: 2))
        let whole = try sweeper.sweep([folder])
        #expect(whole.items.count == 400)

        nonisolated(unsafe) var emitted = 0
        let summary = try sweeper.sweep([folder], shouldStop: { emitted >= 1 }) { _ in emitted += 1 }
        // Each worker may finish the file it is reading; nothing after that.
        #expect(emitted == 1)
        #expect(summary.items == 1)
        #expect(summary.examined < 400)
    }
}
