import Foundation
import Synchronization

/// What the lanes of a migration have done so far, shared between their threads and the one
/// that reports progress.
final class LaneBoard<Key: Hashable & Comparable & Sendable, Failure: Error>: Sendable {
    struct State {
        var tallies: [KeyedBlobTally<Key>]
        var paused: [String?]
        var finished = 0
        var error: Failure?
    }

    let lanes: Int
    let state: Mutex<State>
    /// Signalled on every update, so progress is drawn as it happens.
    let signal = DispatchSemaphore(value: 0)

    init(lanes: Int) {
        self.lanes = lanes
        state = Mutex(State(tallies: Array(repeating: KeyedBlobTally(), count: lanes), paused: Array(repeating: nil, count: lanes)))
    }

    var shouldStop: Bool { state.withLock { $0.error != nil } }
    var firstError: Failure? { state.withLock { $0.error } }

    func update(lane: Int, tally: KeyedBlobTally<Key>, paused: String?) {
        state.withLock {
            $0.tallies[lane] = tally
            $0.paused[lane] = paused
        }
        signal.signal()
    }

    func finish(lane: Int, tally: KeyedBlobTally<Key>?, error: Failure?) {
        state.withLock {
            if let tally { $0.tallies[lane] = tally }
            $0.paused[lane] = nil
            $0.finished += 1
            if $0.error == nil, let error { $0.error = error }
        }
        signal.signal()
    }

    /// The lanes' tallies merged, the first pause reason, and whether every lane is done.
    func snapshot(limit: Int) -> (KeyedBlobTally<Key>, String?, Bool) {
        state.withLock { state in
            var merged = KeyedBlobTally<Key>()
            for tally in state.tallies { merged.merge(tally, limit: limit) }
            return (merged, state.paused.compactMap { $0 }.first, state.finished == lanes)
        }
    }
}
