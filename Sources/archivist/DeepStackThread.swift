import Foundation

/// Runs a closure on a POSIX thread with a stack of a chosen size, and waits for it.
///
/// Foundation's `Thread.stackSize` is not honoured for large sizes on Linux, so this goes to
/// pthreads directly.
enum DeepStackThread {
    final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// - Returns: false when the thread could not be created; the closure has then not run.
    static func run(stackSize: Int, _ body: @escaping () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return false }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        pthread_join(thread, nil)
        return true
    }
}
