#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread with a stack of a chosen size, started with a body and joined once.
///
/// Foundation's `Thread.stackSize` is not honoured for large sizes on Linux, so deep recursion
/// (readers, writers and the release of a deeply nested tree) runs on threads made here. Only
/// the pages a thread touches are committed, so a large stack costs address space.
package struct SystemThread {
    private let thread: pthread_t

    private init(_ thread: pthread_t) {
        self.thread = thread
    }

    /// What to do when the system refuses the stack size asked for.
    package enum StackSizeRefused: Sendable {
        /// Start no thread (`start` returns nil).
        case fail
        /// Start the thread with the system's default stack.
        case useDefault
    }

    /// Starts `body` on a new thread with `stackSize` bytes of stack (the system's default
    /// when nil), without waiting: the caller must `join()` it.
    ///
    /// - Returns: nil when no such thread could be created; the body has then not run.
    package static func start(stackSize: Int?, ifStackSizeRefused refused: StackSizeRefused = .fail,
                              _ body: @escaping () -> Void) -> SystemThread? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize, pthread_attr_setstacksize(&attributes, stackSize) != 0, refused == .fail { return nil }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let status = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0, let thread else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        #else
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        #endif
        return SystemThread(thread)
    }

    /// Waits for the thread's body to return. Call once.
    package func join() {
        pthread_join(thread, nil)
    }

    /// The body, boxed to cross into the C thread.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
