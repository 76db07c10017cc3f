import Dispatch
import PropertyList

/// Maps a batch of stored values on several threads. Classifying and converting a value is
/// pure and independent of the others, while SQLite reads and writes stay on the caller's
/// thread, which hands over a batch at a time.
package enum ParallelBatch {
    /// `transform` of each input, in order, on up to `parallelism` threads (fewer for small
    /// batches). `stackSize` gives each thread a stack of that size, for depth limits above
    /// what an ordinary thread's stack can hold.
    package static func map<Input: Sendable, Output>(_ inputs: [Input], parallelism: Int, stackSize: Int?, placeholder: Output,
                                             _ transform: @escaping @Sendable (Input) -> Output) -> [Output] {
        map(inputs, parallelism: parallelism, stackSize: stackSize, placeholder: placeholder, makeState: {}) { _, input in
            transform(input)
        }
    }

    /// `map`, with a state of its own for each thread (`makeState()`, made on that thread),
    /// handed to `transform` with each input: buffers and caches kept from one value to the next.
    package static func map<Input: Sendable, Output, State>(_ inputs: [Input], parallelism: Int, stackSize: Int?, placeholder: Output,
                                                    makeState: @escaping @Sendable () -> State,
                                                    _ transform: @escaping @Sendable (inout State, Input) -> Output) -> [Output] {
        let workers = min(max(1, parallelism), max(1, inputs.count / 64))
        var outputs = [Output](repeating: placeholder, count: inputs.count)
        outputs.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            let chunk = (inputs.count + workers - 1) / workers
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                // Each worker writes only its own slice of the buffer.
                let range = (worker * chunk)..<min(inputs.count, (worker + 1) * chunk)
                let work = {
                    var state = makeState()
                    for index in range { output[index] = transform(&state, inputs[index]) }
                }
                if let stackSize, DeepStackThread.run(stackSize: stackSize, work) { return }
                work()
            }
        }
        return outputs
    }

    /// `body` of each of up to `parallelism` consecutive slices of `0..<count`, in order
    /// (fewer slices for small counts): for work that folds a slice into one value, such as a
    /// tally, which the caller then merges in order.
    package static func slices<Output>(count: Int, parallelism: Int, stackSize: Int?, placeholder: Output,
                                       _ body: @escaping @Sendable (Range<Int>) -> Output) -> [Output] {
        let workers = min(max(1, parallelism), max(1, count / 64))
        var outputs = [Output](repeating: placeholder, count: workers)
        outputs.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            let chunk = (count + workers - 1) / workers
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                // Each worker writes only its own element.
                let range = min(count, worker * chunk)..<min(count, (worker + 1) * chunk)
                let work = { output[worker] = body(range) }
                if let stackSize, DeepStackThread.run(stackSize: stackSize, work) { return }
                work()
            }
        }
        return outputs
    }
}
