import Foundation
@testable import PropertyList

/// A file in memory for the binary transcoder's positioned writes: what a file on disk would
/// hold, and how it was written.
final class RecordingPositionedOutput: PositionedOutput {
    private(set) var bytes: [UInt8] = []
    /// The writes, in order: where each began and how long it was.
    private(set) var writes: [(offset: Int, count: Int)] = []
    private(set) var discards = 0

    func write(_ chunk: UnsafeRawBufferPointer, at offset: Int) {
        writes.append((offset, chunk.count))
        if bytes.count < offset + chunk.count { bytes.append(contentsOf: repeatElement(0, count: offset + chunk.count - bytes.count)) }
        bytes.replaceSubrange(offset..<offset + chunk.count, with: chunk)
    }

    func discardWritten() {
        bytes = []
        writes = []
        discards += 1
    }

    /// Whether some write went over bytes written before: a reference filled in after its
    /// collection was handed on.
    var rewroteAPlace: Bool {
        var end = 0
        for write in writes {
            if write.offset < end { return true }
            end = max(end, write.offset + write.count)
        }
        return false
    }
}
