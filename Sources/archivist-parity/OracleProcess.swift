import Foundation

/// The parent side: one worker process running CF (`archivist-parity --oracle-worker`), restarted
/// whenever CF kills it or stops answering, so that one bad input costs one row, not the run.
final class OracleProcess {
    private var pid: pid_t = 0
    private var toWorker: Int32 = -1
    private var fromWorker: Int32 = -1
    private let executable: URL
    private let timeoutMilliseconds: Int32
    /// How many workers were started (1 + the restarts after crashes and hangs).
    private(set) var starts = 0

    init(timeoutSeconds: Double) {
        // This very executable, by the path the kernel knows it by.
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        executable = URL(fileURLWithPath: path)
        timeoutMilliseconds = Int32(timeoutSeconds * 1000)
        // A worker that dies while we write to it must not take this process with it.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { stop() }

    private func start() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw OracleError.cannotStart("pipe: errno \(errno)") }
        // Close-on-exec, so that no later worker inherits this one's pipes (dup2 clears it on 0 and 1).
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        // CF logs warnings (a missing semicolon, a nesting fault) on stderr; they are not answers.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for fd in input + output { posix_spawn_file_actions_addclose(&actions, fd) }
        // A crash should end the worker at once, not after a symbolicated backtrace.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let arguments = [executable.path, "--oracle-worker"]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable.path, &actions, nil, argv, envp)
        close(input[0])
        close(output[1])
        guard status == 0 else {
            close(input[1])
            close(output[0])
            throw OracleError.cannotStart("posix_spawn: \(status)")
        }
        pid = child
        toWorker = input[1]
        fromWorker = output[0]
        starts += 1
    }

    /// Ends the worker (if any) and forgets it; returns how it ended.
    @discardableResult
    func stop() -> String {
        guard pid > 0 else { return "no worker" }
        close(toWorker)
        close(fromWorker)
        var status: Int32 = 0
        // Closing its input ends a healthy worker; one that does not end at once is killed.
        var waited = waitpid(pid, &status, WNOHANG)
        if waited == 0 {
            kill(pid, SIGKILL)
            repeat { waited = waitpid(pid, &status, 0) } while waited < 0 && errno == EINTR
        }
        pid = 0
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, spelled out (the macros are not imported).
        let signal = status & 0x7F
        if signal != 0 && signal != 0x7F { return "signal \(signal)" }
        return "exit status \((status >> 8) & 0xFF)"
    }

    /// Sends one input. Call `receive()` for its answer before sending the next.
    func send(_ bytes: [UInt8], as request: OracleRequest = .propertyList) throws {
        if pid == 0 { try start() }
        if !FrameIO.writeFrame([request.rawValue] + bytes, to: toWorker) {
            // The worker died before reading (it will be seen by receive()).
            return
        }
    }

    /// CF's outcome for the last input sent: its answer, or a crash or a hang.
    func receive() -> ParityOutcome {
        var poller = pollfd(fd: fromWorker, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&poller, 1, timeoutMilliseconds) } while ready < 0 && errno == EINTR
        if ready == 0 {
            stop()
            return .hung
        }
        if let frame = FrameIO.readFrame(from: fromWorker), let outcome = OutcomeCoding.decode(frame) {
            return outcome
        }
        // No answer: the worker ended. Say how (it may still be exiting: wait for it).
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(pid, &status, 0) } while waited < 0 && errno == EINTR
        close(toWorker)
        close(fromWorker)
        pid = 0
        let signal = status & 0x7F
        return .crashed(signal != 0 && signal != 0x7F ? "signal \(signal)" : "exit status \((status >> 8) & 0xFF)")
    }
}

enum OracleError: Error, CustomStringConvertible {
    case cannotStart(String)
    var description: String {
        switch self {
        case .cannotStart(let why): "cannot start the CF worker: \(why)"
        }
    }
}
