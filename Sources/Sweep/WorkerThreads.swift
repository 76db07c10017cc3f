import Foundation

/// POSIX threads with a chosen stack, started together and joined together: the sweep's
/// workers. (Foundation's `Thread.stackSize` is not honoured for large sizes on Linux.)
enum WorkerThreads {
    final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body(index)` on `count` threads while `meanwhile` runs on the calling one, and
    /// returns when all have finished. A thread that cannot be created runs its body on the
    /// calling thread after `meanwhile`.
    static func run(count: Int, stackSize: Int?, _ body: @escaping @Sendable (Int) -> Void, meanwhile: () -> Void) {
        var threads: [pthread_t] = []
        var notStarted: [Int] = []
        for index in 0..<count {
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
            let context = Unmanaged.passRetained(Box({ body(index) })).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(&thread, &attributes, { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, context)
            if status == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Box>.fromOpaque(context).release()
                notStarted.append(index)
            }
        }
        meanwhile()
        for index in notStarted { body(index) }
        for thread in threads { pthread_join(thread, nil) }
    }
}
