import Foundation

/// Tasks waiting for the sweep's workers, bounded in count and in the bytes they hold.
///
/// Readers (folder walkers, container readers) submit; workers take. A reader that is not a
/// worker blocks while the queue is full, so memory stays bounded whatever the tree's size. A
/// worker that reads a container it met in a folder never blocks: when the queue is full it
/// does the task itself (`trySubmit` returns false), so workers cannot wait on each other.
final class SweepWorkQueue<Task>: @unchecked Sendable {
    private let condition = NSCondition()
    private var tasks: [(task: Task, bytes: Int)] = []
    private var head = 0
    /// Bytes held by tasks waiting or running.
    private var bytesHeld = 0
    /// Workers running a task: they may submit more.
    private var busy = 0
    private var producing = true
    let capacity: Int
    let byteLimit: Int

    init(capacity: Int, byteLimit: Int) {
        self.capacity = max(1, capacity)
        self.byteLimit = max(1, byteLimit)
    }

    private var waiting: Int { tasks.count - head }

    /// Whether a task of `bytes` fits now. A task larger than the limit fits when nothing else
    /// is held, so it is never refused for good.
    private func fits(_ bytes: Int) -> Bool {
        waiting < capacity && (bytesHeld == 0 || bytesHeld + bytes <= byteLimit)
    }

    /// Adds a task, waiting for room.
    func submit(_ task: Task, bytes: Int) {
        condition.lock()
        while !fits(bytes) { condition.wait() }
        append(task, bytes: bytes)
        condition.unlock()
    }

    /// Adds a task if there is room now; false otherwise (the caller does it itself).
    func trySubmit(_ task: Task, bytes: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard fits(bytes) else { return false }
        append(task, bytes: bytes)
        return true
    }

    private func append(_ task: Task, bytes: Int) {
        if head > 1024, head * 2 > tasks.count {
            tasks.removeFirst(head)
            head = 0
        }
        tasks.append((task, bytes))
        bytesHeld += bytes
        condition.broadcast()
    }

    /// The next task, or nil once readers are done, nothing waits and no worker is busy.
    func next() -> (task: Task, bytes: Int)? {
        condition.lock()
        defer { condition.unlock() }
        while waiting == 0 {
            if !producing && busy == 0 {
                condition.broadcast()
                return nil
            }
            condition.wait()
        }
        let entry = tasks[head]
        head += 1
        busy += 1
        condition.broadcast()
        return entry
    }

    /// A worker finished a task that held `bytes`.
    func done(bytes: Int) {
        condition.lock()
        busy -= 1
        bytesHeld -= bytes
        condition.broadcast()
        condition.unlock()
    }

    /// No reader outside the workers will submit again.
    func finishProducing() {
        condition.lock()
        producing = false
        condition.broadcast()
        condition.unlock()
    }
}
