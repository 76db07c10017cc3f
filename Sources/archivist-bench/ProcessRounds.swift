import Foundation

/// Commands timed in rounds: each round runs every command once, in the order they were added,
/// and each command keeps its best run (with the largest peak memory seen).
///
/// The machine the benchmark runs on is shared, and its speed moves by a third or more over
/// minutes. Timed one command after another (all runs of the first, then all of the next), a
/// slow spell falls on whichever command ran during it and skews the ratios taken within the
/// run; timed in rounds, every command meets it alike.
final class ProcessRounds {
    /// One command, and its best run once the rounds are over: nil when it failed to start or
    /// exited with another status than expected in any round (it is not run again).
    final class Command {
        let arguments: [String]
        let stdoutPath: String
        let outputPath: String?
        /// Run before each run, outside the timing: what the command changes (a store or a
        /// table it migrates) is put back as it was. False stops the command.
        let prepare: (() -> Bool)?
        fileprivate(set) var best: ProcessRun?
        /// Every run's time, in round order.
        fileprivate(set) var times: [Double] = []
        fileprivate(set) var failed = false

        init(arguments: [String], stdoutPath: String, outputPath: String?, prepare: (() -> Bool)? = nil) {
            self.arguments = arguments
            self.stdoutPath = stdoutPath
            self.outputPath = outputPath
            self.prepare = prepare
        }

        /// The median of the runs' times.
        var median: Double? { Self.median(times) }

        /// The median, over the rounds both ran, of this command's time over `other`'s in the
        /// same round: the two ran seconds apart, so a slow spell of the machine falls on both,
        /// where the ratio of two best runs can pair a lucky run with an unlucky one.
        func medianRatio(to other: Command) -> Double? {
            Self.median(zip(times, other.times).compactMap { $1 > 0 ? $0 / $1 : nil })
        }

        private static func median(_ values: [Double]) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
    }

    private var commands: [Command] = []
    /// The 1-minute load average before each run (`/proc/loadavg`), where it can be read.
    private(set) var loads: [Double] = []

    /// Adds a command to every round; its run is read from the result once `run` is over.
    func add(_ arguments: [String], stdoutPath: String = "/dev/null", outputPath: String? = nil, prepare: (() -> Bool)? = nil) -> Command {
        let command = Command(arguments: arguments, stdoutPath: stdoutPath, outputPath: outputPath, prepare: prepare)
        commands.append(command)
        return command
    }

    /// Runs `rounds` rounds, saying on `log` where it is.
    func run(rounds: Int, log: (String) -> Void) {
        for round in 1...max(1, rounds) {
            log("process: round \(round) of \(max(1, rounds)), \(commands.count) commands…")
            for command in commands where !command.failed {
                if let prepare = command.prepare, !prepare() {
                    log("process benchmark: cannot prepare \(command.arguments.joined(separator: " "))")
                    command.failed = true
                    command.best = nil
                    continue
                }
                if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
                   let load = text.split(separator: " ").first.flatMap({ Double($0) }) {
                    loads.append(load)
                }
                guard let run = ProcessRun.run(command.arguments, stdoutPath: command.stdoutPath, outputPath: command.outputPath),
                      run.status == 0 else {
                    log("process benchmark: \(command.arguments.joined(separator: " ")) failed")
                    command.failed = true
                    command.best = nil
                    continue
                }
                command.times.append(run.seconds)
                if var kept = command.best {
                    kept.peakBytes = max(kept.peakBytes, run.peakBytes)
                    kept.seconds = min(kept.seconds, run.seconds)
                    command.best = kept
                } else {
                    command.best = run
                }
            }
        }
    }
}
