import Foundation
import Synchronization

/// Spaces batches so that all lanes together stay under a rate (rows per second): each batch
/// books its rows' share of time, and waits for its turn.
final class RateLimiter: Sendable {
    let rowsPerSecond: Double
    /// When the next batch may start, in uptime nanoseconds.
    let next = Mutex<UInt64>(0)

    init(rowsPerSecond: Double) {
        self.rowsPerSecond = rowsPerSecond
    }

    /// Waits until `rows` more rows keep the rate.
    func admit(rows: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        let start = book(rows: rows, now: now)
        if start > now { sleep(seconds: Double(start - now) / 1e9) }
    }

    /// Books `rows` at the first free moment from `now` (uptime nanoseconds) and returns it.
    func book(rows: Int, now: UInt64) -> UInt64 {
        guard rowsPerSecond > 0, rows > 0 else { return now }
        let cost = UInt64(Double(rows) / rowsPerSecond * 1e9)
        return next.withLock { next -> UInt64 in
            let start = max(next, now)
            next = start + cost
            return start
        }
    }
}

/// Sleeps this thread.
func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    let nanoseconds = UInt64(seconds * 1e9)
    var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
