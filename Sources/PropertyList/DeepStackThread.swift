import Foundation
internal import SystemInterface

/// Runs work on a POSIX thread with a stack of a chosen size, and waits for it.
///
/// Reading, writing and releasing a tree recurse once per level of nesting. The library's
/// default depth limit (512) is safe on any thread; callers that raise it, as the CLI does,
/// run their work here. Foundation's `Thread.stackSize` is not honoured for large sizes on
/// Linux, so this goes to pthreads directly (through the package's system interface). Only the
/// pages a thread touches are committed.
public enum DeepStackThread {
    /// Runs `body` on a new thread with `stackSize` bytes of stack.
    ///
    /// - Returns: false when no such thread could be created; the body has then not run.
    public static func run(stackSize: Int, _ body: @escaping () -> Void) -> Bool {
        guard let thread = start(stackSize: stackSize, body) else { return false }
        thread.join()
        return true
    }

    /// A thread `start` began, to be joined once.
    public struct Started {
        let thread: SystemThread

        /// Waits for the thread's body to return.
        public func join() { thread.join() }
    }

    /// Starts `body` on a new thread with `stackSize` bytes of stack (the system's default when
    /// nil), without waiting: the caller must `join()` it. Nil when no such thread could be
    /// created; the body has then not run.
    public static func start(stackSize: Int?, _ body: @escaping () -> Void) -> Started? {
        SystemThread.start(stackSize: stackSize, body).map(Started.init)
    }
}
