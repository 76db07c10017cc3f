import Foundation

/// Writes an output's large pieces on a thread of its own, one piece at a time, while the verb
/// produces the next.
///
/// The streaming writers hand their output over a megabyte at a time, and `write(2)` of a
/// megabyte into a file costs the writer's thread a fifth of a millisecond in the kernel
/// (ext4 allocating and copying pages): for `inspect --format json` of a 20 MB typedstream, 31 MB
/// of output, about a seventh of the whole run. Copying each piece into a buffer of this writer
/// and returning costs a tenth of that, and the kernel's share then runs on the other core.
/// Measured figures are in docs/benchmarks.md.
///
/// One piece is in flight at most: `submit` waits for the one before, so the output keeps its
/// order and the memory this adds is one piece. The caller's state that `write` changes
/// (how much was written, the first failure) belongs to this thread while a piece is in flight
/// and to the caller after `waitUntilWritten()`, which the lock orders.
final class BackgroundOutputWriter: @unchecked Sendable {
    private let condition = NSCondition()
    private let write: (UnsafeRawBufferPointer) -> Void
    // Guarded by `condition`.
    private var inFlight = false
    private var stopping = false
    /// The piece in flight. Mapped once at the size of the largest piece taken: pages cost
    /// memory only once written, so it holds as much as the largest piece written, and never
    /// moves (a `realloc` to each larger piece left the old block behind in the heap).
    private let storage: UnsafeMutableRawPointer
    private let storageSize: Int
    private var pieceLength = 0
    private var thread: SystemThread?

    private init(storage: UnsafeMutableRawPointer, size: Int, write: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.storage = storage
        storageSize = size
        self.write = write
    }

    deinit { MemoryMap.unmap(storage, storageSize) }

    /// Starts the writing thread, which calls `write` with each piece of at most `largestPiece`
    /// bytes; nil when no memory or no thread could be had (the caller then writes its pieces
    /// itself).
    static func start(largestPiece: Int, write: @escaping (UnsafeRawBufferPointer) -> Void) -> BackgroundOutputWriter? {
        guard largestPiece > 0, let storage = MemoryMap.mapZeroed(largestPiece) else { return nil }
        let writer = BackgroundOutputWriter(storage: storage, size: largestPiece, write: write)
        guard let thread = SystemThread.start(stackSize: nil, { writer.run() }) else { return nil }
        writer.thread = thread
        return writer
    }

    /// Waits for the piece before to be written, copies `bytes` and returns; the thread writes
    /// them. False for a piece larger than the writer takes: the caller then writes it itself.
    func submit(_ bytes: UnsafeRawBufferPointer) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while inFlight { condition.wait() }
        guard let source = bytes.baseAddress else { return true }
        guard bytes.count <= storageSize else { return false }
        storage.copyMemory(from: source, byteCount: bytes.count)
        pieceLength = bytes.count
        inFlight = true
        condition.broadcast()
        return true
    }

    /// Returns once the piece in flight, if any, is written.
    func waitUntilWritten() {
        condition.lock()
        while inFlight { condition.wait() }
        condition.unlock()
    }

    /// Writes the piece in flight, stops the thread and waits for it. Call once.
    func finish() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        thread?.join()
        thread = nil
    }

    private func run() {
        condition.lock()
        while true {
            while !inFlight && !stopping { condition.wait() }
            // Stopping with a piece in flight writes it first.
            guard inFlight else { break }
            let piece = UnsafeRawBufferPointer(start: storage, count: pieceLength)
            condition.unlock()
            write(piece)
            condition.lock()
            inFlight = false
            condition.broadcast()
        }
        condition.unlock()
    }
}
