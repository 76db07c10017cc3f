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
        fileprivate(set) var best: ProcessRun?
        fileprivate(set) var failed = false

        init(arguments: [String], stdoutPath: String, outputPath: String?) {
            self.arguments = arguments
            self.stdoutPath = stdoutPath
            self.outputPath = outputPath
        }
    }

    private var commands: [Command] = []

    /// Adds a command to every round; its run is read from the result once `run` is over.
    func add(_ arguments: [String], stdoutPath: String = "/dev/null", outputPath: String? = nil) -> Command {
        let command = Command(arguments: arguments, stdoutPath: stdoutPath, outputPath: outputPath)
        commands.append(command)
        return command
    }

    /// Runs `rounds` rounds, saying on `log` where it is.
    func run(rounds: Int, log: (String) -> Void) {
        for round in 1...max(1, rounds) {
            log("process: round \(round) of \(max(1, rounds)), \(commands.count) commands…")
            for command in commands where !command.failed {
                guard let run = ProcessRun.run(command.arguments, stdoutPath: command.stdoutPath, outputPath: command.outputPath),
                      run.status == 0 else {
                    log("process benchmark: \(command.arguments.joined(separator: " ")) failed")
                    command.failed = true
                    command.best = nil
                    continue
                }
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
