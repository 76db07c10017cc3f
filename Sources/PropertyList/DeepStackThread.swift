import Foundation

/// Runs work on a POSIX thread with a stack of a chosen size, and waits for it.
///
/// Reading, writing and releasing a tree recurse once per level of nesting. The library's
/// default depth limit (512) is safe on any thread; callers that raise it, as the CLI does,
/// run their work here. Foundation's `Thread.stackSize` is not honoured for large sizes on
/// Linux, so this goes to pthreads directly. Only the pages a thread touches are committed.
public enum DeepStackThread {
    final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

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
        let thread: pthread_t

        /// Waits for the thread's body to return.
        public func join() { pthread_join(thread, nil) }
    }

    /// Starts `body` on a new thread with `stackSize` bytes of stack (the system's default when
    /// nil), without waiting: the caller must `join()` it. Nil when no such thread could be
    /// created; the body has then not run.
    public static func start(stackSize: Int?, _ body: @escaping () -> Void) -> Started? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize, pthread_attr_setstacksize(&attributes, stackSize) != 0 { return nil }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return nil
        }
        return Started(thread: thread)
    }
}
