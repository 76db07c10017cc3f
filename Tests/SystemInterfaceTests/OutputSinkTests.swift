import Foundation
@testable import SystemInterface
import Testing

/// What every verb's output relies on: pieces land in order whichever thread writes them (the
/// streaming writers' megabyte pieces go through `BackgroundOutputWriter`), a file is replaced
/// only by `commit()`, and a reader that goes away or a full disk ends the output without a
/// crash. Files are made in a fresh temporary folder per test.
@Suite struct OutputSinkTests {
    /// Pieces of every size the sink treats differently: buffered, written at once, handed to
    /// the background writer at both ends of its range, and larger than it takes.
    static let pieceSizes = [1, 100, 70_000, OutputSink.backgroundPieces.lowerBound - 1, OutputSink.backgroundPieces.lowerBound,
                             1 << 20, (1 << 20) + 64 << 10, 3, OutputSink.backgroundPieces.upperBound,
                             OutputSink.backgroundPieces.upperBound + 1, 1 << 20, 17]

    /// Bytes that differ from piece to piece and from place to place, so that a piece written
    /// twice, dropped or out of order shows.
    static func piece(_ number: Int, size: Int) -> [UInt8] {
        (0 ..< size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ number &* 7 &+ $0 >> 8) }
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "output-sink-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test(arguments: [true, false])
    func piecesOfEverySizeLandInTheFileInTheOrderTheyWereWritten(inBackground: Bool) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.json"
        let sink = try OutputSink(path: path)
        sink.writesPiecesInBackground = inBackground
        var expected: [UInt8] = []
        for (number, size) in Self.pieceSizes.enumerated() {
            let piece = Self.piece(number, size: size)
            piece.withUnsafeBytes { sink.write($0) }
            expected += piece
        }
        #expect(!sink.hasStopped)
        #expect(!FileManager.default.fileExists(atPath: path), "nothing is at the destination before commit")
        try sink.commit()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }

    @Test func positionedWritesAfterBackgroundPiecesOverwriteWhatThosePiecesWrote() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.bplist"
        let sink = try OutputSink(path: path)
        var expected = Self.piece(1, size: 1 << 20) + Self.piece(2, size: 1 << 20)
        Self.piece(1, size: 1 << 20).withUnsafeBytes { sink.write($0) }
        Self.piece(2, size: 1 << 20).withUnsafeBytes { sink.write($0) }
        // A writer that fills in its header after the body (as transcodeBinary does).
        let header: [UInt8] = Array("bplist00".utf8)
        header.withUnsafeBytes { sink.write($0, at: 0) }
        expected.replaceSubrange(0 ..< header.count, with: header)
        try sink.commit()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }

    @Test func discardingWhatWasWrittenDropsBackgroundPiecesToo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.json"
        let sink = try OutputSink(path: path)
        Self.piece(1, size: 1 << 20).withUnsafeBytes { sink.write($0) }
        sink.discardWritten()
        let kept = Self.piece(2, size: 300_000) + Self.piece(3, size: 10)
        kept.withUnsafeBytes { sink.write($0) }
        try sink.commit()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == kept)
    }

    @Test func anAbandonedOutputLeavesTheFileItWouldReplaceAsItWas() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.json"
        try Data("before".utf8).write(to: URL(fileURLWithPath: path))
        let sink = try OutputSink(path: path)
        for number in 0 ..< 4 { Self.piece(number, size: 1 << 20).withUnsafeBytes { sink.write($0) } }
        sink.abandon()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "before")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.json"], "the file written beside it is gone")
    }

    @Test func aFullDiskIsReportedByCommitAndStopsTheOutput() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let sink = try OutputSink(path: "/dev/full")
        Self.piece(1, size: 1 << 20).withUnsafeBytes { sink.write($0) }
        #expect(sink.hasStopped)
        Self.piece(2, size: 1 << 20).withUnsafeBytes { sink.write($0) }
        #expect(throws: OutputSink.Failure.self) { try sink.commit() }
    }

    @Test func aReaderThatClosesThePipeEndsTheOutputQuietly() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        // The sink writes to a device or pipe named as its destination; /dev/fd/N names the pipe.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let sink = try OutputSink(path: "/dev/fd/\(ends[1])")
        for number in 0 ..< 3 { Self.piece(number, size: 1 << 20).withUnsafeBytes { sink.write($0) } }
        #expect(sink.readerWentAway)
        try sink.commit()
        close(ends[1])
    }
}
