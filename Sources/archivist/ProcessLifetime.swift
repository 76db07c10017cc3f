import Foundation

/// What a verb has read, kept until the process exits.
///
/// The CLI reads, writes and exits. Freeing a tree of a million values node by node just before
/// exit costs a tenth to a third of the run (every node's release and `free`), for memory the
/// exit gives back at once. The last value a verb reads is parked here instead; reading another
/// (`lint` and `check` take several files) lets the previous one go, so memory stays that of
/// one input. The libraries keep ordinary ownership: this is the CLI's choice alone.
enum ProcessLifetime {
    private static let lock = NSLock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var kept: [String: Any] = [:]

    /// Keeps `value` to the end of the process under `role`, releasing what `role` held before.
    static func keep(_ value: Any, as role: String = "input") {
        lock.lock()
        let previous = kept.updateValue(value, forKey: role)
        lock.unlock()
        // Released here, outside the lock.
        _ = previous
    }
}
