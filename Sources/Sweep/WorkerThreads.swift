import Foundation
internal import SystemInterface

/// Threads with a chosen stack, started together and joined together: the sweep's workers.
/// (Foundation's `Thread.stackSize` is not honoured for large sizes on Linux.)
enum WorkerThreads {
    /// Runs `body(index)` on `count` threads while `meanwhile` runs on the calling one, and
    /// returns when all have finished. A thread that cannot be created runs its body on the
    /// calling thread after `meanwhile`; one whose stack size the system refuses gets the
    /// default stack.
    static func run(count: Int, stackSize: Int?, _ body: @escaping @Sendable (Int) -> Void, meanwhile: () -> Void) {
        var threads: [SystemThread] = []
        var notStarted: [Int] = []
        for index in 0..<count {
            if let thread = SystemThread.start(stackSize: stackSize, ifStackSizeRefused: .useDefault, { body(index) }) {
                threads.append(thread)
            } else {
                notStarted.append(index)
            }
        }
        meanwhile()
        for index in notStarted { body(index) }
        for thread in threads { thread.join() }
    }
}
