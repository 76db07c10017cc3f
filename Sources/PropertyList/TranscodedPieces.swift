import Foundation

/// The pieces of one output that several threads write, handed on in order as they are done.
///
/// Threads take pieces by number (`claim`), write each into a buffer of their own, and give it
/// back (`finish`); whichever thread gives back the next piece due hands it, and every piece
/// done after it, to the drain, one thread at a time. No thread ever waits for another, so the
/// pieces come out right however the threads are scheduled, even one after another on a busy
/// machine. A thread that fails stops the others at their next claim.
final class TranscodedPieces: @unchecked Sendable {
    private let lock = NSLock()
    let count: Int
    private let drain: (UnsafeRawBufferPointer) -> Void
    private var nextToClaim = 0
    private var nextToHand = 0
    private var handing = false
    /// Pieces done and not yet handed on, by number.
    private var done: [Data?]
    private(set) var failed = false
    /// What each thread's walk added to the expanded size, for the caller to count against the
    /// limits as one walk counts it (`BinaryPropertyListParser.grow`).
    private(set) var grown: [BinaryPropertyListParser.Weight] = []

    /// `count` pieces, handed to `drain` in order as they are done.
    init(count: Int, drain: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.count = count
        self.drain = drain
        done = [Data?](repeating: nil, count: count)
    }

    /// The number of the next piece to write, or nil when all are taken or one failed.
    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard !failed, nextToClaim < count else { return nil }
        nextToClaim += 1
        return nextToClaim - 1
    }

    /// Gives back piece `number`, written; hands it on with those after it that are done when
    /// it is the next due and no other thread is handing pieces on.
    func finish(_ number: Int, _ bytes: Data) {
        lock.lock()
        done[number] = bytes
        guard !handing else { lock.unlock(); return }
        handing = true
        while nextToHand < count, let next = done[nextToHand] {
            done[nextToHand] = nil
            nextToHand += 1
            lock.unlock()
            next.withUnsafeBytes { drain($0) }
            lock.lock()
        }
        handing = false
        lock.unlock()
    }

    /// Stops every thread at its next claim.
    func fail() {
        lock.lock()
        failed = true
        lock.unlock()
    }

    /// Keeps what one thread's walk added to the expanded size.
    func add(_ weight: BinaryPropertyListParser.Weight) {
        lock.lock()
        grown.append(weight)
        lock.unlock()
    }

    /// Every piece not handed on yet, in order, once all threads are done (none when no thread
    /// failed: the last to finish hands on what is left).
    func remaining() -> [Data] {
        lock.lock()
        defer { lock.unlock() }
        let rest = done[nextToHand...].compactMap { $0 }
        nextToHand = count
        return rest
    }
}
