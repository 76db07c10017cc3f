import CPrefetch
import Foundation
import Synchronization

/// Checks, on a thread of its own while the binary transcoder walks a file, that no two scalar
/// objects of the file have the same encoding in the output. When none do, the walk may number
/// each input scalar as an object of its own, with no uniquing table, and still give the bytes
/// CF's numbering gives.
///
/// CF and plistlib store each distinct scalar once, so the files they write pass, and the
/// uniquing table's look-ups (a cache miss each, a million or more in a large file) run on a
/// second core beside the walk instead of inside it. A file with equal scalars stored apart
/// fails, and is walked again with the table. Every object is checked, reached or not, in file
/// order: one the walk never reaches can only make the check fail where it need not, which costs
/// time and never bytes. Objects `scalarWeight` refuses are skipped, since a walk that reaches
/// one stops there.
final class DistinctScalarCheck: @unchecked Sendable {
    enum Outcome: Equatable {
        /// No two scalar objects have the same encoding.
        case distinct
        /// Two do; or the file has too many objects for the table's indexes.
        case equalScalars
        /// `cancel()` stopped the check.
        case cancelled
    }

    private let stop = Atomic<Bool>(false)
    /// Written by the checking thread before it ends, read only after joining it.
    private var outcome = Outcome.cancelled
    /// The checking thread until it is joined; touched only by the caller's thread.
    private var thread: DeepStackThread.Started?

    private init() {}

    /// Starts checking the file `parser` opened, on a thread of its own (not a shared pool's,
    /// where a caller already running on the pool could wait for a thread that never comes);
    /// nil when no thread could be created, and the caller must find equal scalars itself.
    /// The bytes under the parser must stay until `result()` or `cancel()` has returned.
    static func start(_ parser: BinaryPropertyListParser) -> DistinctScalarCheck? {
        let check = DistinctScalarCheck()
        let opened = CheckedParser(parser: parser)
        guard let thread = DeepStackThread.start(stackSize: nil, { check.outcome = Self.check(opened.parser, stop: check.stop) }) else {
            return nil
        }
        check.thread = thread
        return check
    }

    /// Waits for the check and gives its outcome.
    func result() -> Outcome {
        join()
        return outcome
    }

    /// Asks the check to stop, and waits until its thread no longer reads the file.
    func cancel() {
        stop.store(true, ordering: .relaxed)
        join()
    }

    private func join() {
        thread?.join()
        thread = nil
    }

    /// How many objects ahead of the one looked up the check hashes, and asks for their places
    /// in the table: a large file's look-ups then miss the cache side by side.
    static let lookAhead = 16

    /// Whether any two scalar objects of `parser`'s file have the same encoding: every scalar is
    /// looked up in a table by the hash of its encoding, `lookAhead` objects after it was hashed,
    /// and a match confirmed by encoding both again and comparing. Objects are looked up and
    /// added in file order, so of two equal ones the later finds the earlier.
    static func check(_ parser: BinaryPropertyListParser, stop: borrowing Atomic<Bool>) -> Outcome {
        var parser = parser
        let count = parser.trailer.objectCount
        // The table's places hold indexes below 2^32.
        guard count < Int(UInt32.max) - 1 else { return .equalScalars }
        let places = ScalarTable(expected: count)
        var encoding = BinaryPropertyListOutput(capacity: 1 << 12)
        var earlier = BinaryPropertyListOutput(capacity: 1 << 12)
        // The hashes of the objects hashed and not yet looked up; nil for collections and
        // objects `scalarWeight` refuses.
        var hashes = [UInt64?](repeating: nil, count: lookAhead)
        for step in 0..<count + lookAhead {
            if step & 0xFFF == 0, stop.load(ordering: .relaxed) { return .cancelled }
            let slot = step % lookAhead
            if step >= lookAhead, let hash = hashes[slot] {
                let index = step - lookAhead
                let (found, at) = places.lookUp(hash) { earlierIndex in
                    parser.binaryScalarEncoding(earlierIndex, into: &earlier) && parser.binaryScalarEncoding(index, into: &encoding)
                        && earlier.bytes.length == encoding.bytes.length
                        && memcmp(earlier.bytes.base, encoding.bytes.base, encoding.bytes.length) == 0
                }
                if found != nil { return .equalScalars }
                places.insert(index, hash: hash, at: at)
            }
            hashes[slot] = nil
            if step < count, parser.binaryScalarEncoding(step, into: &encoding) {
                let hash = ScalarTable.hash(UnsafeRawBufferPointer(start: encoding.bytes.base, count: encoding.bytes.length))
                archivist_prefetch(places.places + places.start(hash))
                hashes[slot] = hash
            }
        }
        return .distinct
    }
}

/// The parser the checking thread copies: a value whose arrays are copied on a first write, over
/// input bytes that nothing writes and that outlive the thread (`result()` or `cancel()` waits).
private struct CheckedParser: @unchecked Sendable {
    let parser: BinaryPropertyListParser
}
