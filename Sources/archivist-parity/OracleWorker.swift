import Foundation
import SystemInterface

/// The child side: reads inputs from stdin, answers with CF's outcome on stdout, until EOF.
///
/// Frames are a little-endian UInt32 length and that many bytes, both ways; a request's first
/// byte says what to do with the rest (`OracleRequest`). A CF `abort` or
/// `fatalError` ends this process; the parent sees the pipe close and the status, records the
/// input, and starts another worker.
enum OracleWorker {
    static func run() -> Never {
        guard let oracle = CoreFoundationOracle(lookup: DynamicSymbol.address) else {
            FileHandle.standardError.write(Data("archivist-parity: Core Foundation's functions are not in this process\n".utf8))
            exit(2)
        }
        while let frame = FrameIO.readFrame(from: 0), let kind = frame.first.flatMap(OracleRequest.init) {
            let input = Array(frame.dropFirst())
            let outcome: ParityOutcome
            switch kind {
            case .propertyList: outcome = input.withUnsafeBytes { oracle.read($0) }
            case .keyedArchive: outcome = ArchiveOracle.unarchive(input, oracle: oracle)
            }
            guard FrameIO.writeFrame(OutcomeCoding.encode(outcome), to: 1) else { exit(3) }
        }
        exit(0)
    }
}

/// What the worker is asked to do with an input.
enum OracleRequest: UInt8 {
    /// Read it as `PropertyListSerialization` does.
    case propertyList = 0
    /// Open it with `NSKeyedUnarchiver` and follow its references (`ArchiveOracle`).
    case keyedArchive = 1
}

/// The length-prefixed frames of the worker's pipes.
enum FrameIO {
    /// Reads exactly `count` bytes; nil at end of file or on an error.
    static func readExactly(_ count: Int, from fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { FileIO.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[done...])) }
            guard n > 0 else { return nil }
            done += n
        }
        return buffer
    }

    static func readFrame(from fd: Int32) -> [UInt8]? {
        guard let head = readExactly(4, from: fd) else { return nil }
        let length = Int(UInt32(head[0]) | UInt32(head[1]) << 8 | UInt32(head[2]) << 16 | UInt32(head[3]) << 24)
        if length == 0 { return [] }
        return readExactly(length, from: fd)
    }

    static func writeFrame(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var frame = [UInt8]()
        frame.reserveCapacity(bytes.count + 4)
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { frame.append(contentsOf: $0) }
        frame.append(contentsOf: bytes)
        return frame.withUnsafeBytes { FileIO.writeAll(fd, $0) } == nil
    }
}

/// An outcome as bytes: 1, the format and the value; or 0 and the message.
enum OutcomeCoding {
    static func encode(_ outcome: ParityOutcome) -> [UInt8] {
        switch outcome {
        case .accepted(let format, let value):
            var out: [UInt8] = [1, format.rawValue]
            value.encode(into: &out)
            return out
        case .refused(let message):
            return [0] + Array(message.utf8.prefix(400))
        case .crashed, .hung:
            return [0] + Array("no answer".utf8)
        }
    }

    static func decode(_ bytes: [UInt8]) -> ParityOutcome? {
        guard let kind = bytes.first else { return nil }
        if kind == 0 { return .refused(message: String(decoding: bytes.dropFirst(), as: UTF8.self)) }
        guard bytes.count >= 2, let format = ParityFormat(rawValue: bytes[1]) else { return nil }
        return bytes.withUnsafeBytes { raw -> ParityOutcome? in
            var offset = 2
            guard let value = ParityValue.decode(raw, at: &offset), offset == raw.count else { return nil }
            return .accepted(format: format, value: value)
        }
    }
}
