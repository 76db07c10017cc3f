import Foundation

/// One command timed as a whole process, as a user runs it: from spawn to exit, with its peak
/// resident memory (the child's own `ru_maxrss`, from `wait4`).
struct ProcessRun {
    var seconds: Double
    var peakBytes: Int
    /// The size of what it wrote to standard output or to its output file.
    var outputBytes: Int
    var status: Int32

    /// Runs `arguments` (the first is the executable's path) with standard output into
    /// `stdoutPath` (default `/dev/null`) and standard error to `/dev/null`; nil when it cannot
    /// be started.
    ///
    /// The command is started by a fresh `archivist-bench --launch` process, which times it
    /// and reads its rusage: a child started straight from this process would inherit this
    /// process's memory high-water mark (Linux carries it across `exec`), and the benchmark
    /// holds its generated inputs.
    ///
    /// Output files left by an earlier run are removed first, outside the timing: replacing a
    /// file frees its blocks (with the `discard` mount option, a trim of each), which would be
    /// counted against whichever command happened to run second.
    static func run(_ arguments: [String], stdoutPath: String = "/dev/null", outputPath: String? = nil) -> ProcessRun? {
        for path in [stdoutPath, outputPath] {
            if let path, path != "/dev/null" { unlink(path) }
        }
        let launcher = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        guard let (report, _) = ChildProcess.run(launcher, ["--launch", stdoutPath, "--"] + arguments) else { return nil }
        let fields = String(decoding: report, as: UTF8.self).split(separator: " ")
        guard fields.count == 3, let seconds = Double(fields[0]), let peak = Int(fields[1]), let status = Int32(fields[2].trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        var info = stat()
        let written = outputPath ?? stdoutPath
        let outputBytes = written != "/dev/null" && stat(written, &info) == 0 ? Int(info.st_size) : 0
        return ProcessRun(seconds: seconds, peakBytes: peak, outputBytes: outputBytes, status: status)
    }

    /// `archivist-bench --launch STDOUT -- COMMAND…`: runs the command once and prints its
    /// seconds, peak resident bytes and exit status.
    static func launch(_ arguments: [String], stdoutPath: String) -> Never {
        guard let run = spawn(arguments, stdoutPath: stdoutPath) else { exit(1) }
        print("\(run.seconds) \(run.peakBytes) \(run.status)")
        exit(0)
    }

    static func spawn(_ arguments: [String], stdoutPath: String) -> ProcessRun? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return nil }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // WEXITSTATUS, or 128 + the signal.
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ProcessRun(seconds: seconds, peakBytes: usage.ru_maxrss * 1024, outputBytes: 0, status: exit)
    }
}
