import Foundation

/// Runs the built `archivist` executable, as a user would.
struct ArchivistProcess {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var out: String { String(decoding: stdout, as: UTF8.self) }
        var err: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The executable beside the test bundle, built by `swift build` / `swift test`.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The test runner may be inside an .xctest bundle folder.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("archivist")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.appendingPathComponent(".build/debug/archivist")
    }()

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> String {
        repository.appendingPathComponent("Fixtures/plist/\(name)").path
    }

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(executable, arguments, stdin: stdin, environment: environment)
    }

    /// Runs a command line that starts with `archivist` as a POSIX shell reads it (quotes and
    /// all), with the built executable in its place: what a user does with a command we print.
    static func runCommandLine(_ line: String) throws -> Result {
        guard line.hasPrefix("archivist ") else { throw CocoaError(.executableNotLoadable) }
        let script = "'" + executable.path + "'" + line.dropFirst("archivist".count)
        return try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
    }

    /// Runs `program` in `directory` (the test's own by default), reading both pipes as it goes.
    static func run(_ program: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: outData, stderr: errData)
    }

    /// Whether `runOnTerminal` can work here: it needs util-linux's script(1).
    static let hasTerminal = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    /// Runs `archivist` through script(1), which gives it a terminal for its standard output
    /// and error, and returns what the terminal showed (line breaks arrive as CR LF).
    /// `shellSuffix` is appended to the command, such as `> /dev/null`.
    /// With `colors`, the terminal is one that shows colors: TERM is set and NO_COLOR unset,
    /// whatever the test runner's environment says.
    static func runOnTerminal(_ arguments: [String], shellSuffix: String = "", colors: Bool = false) throws -> String {
        let command = ([executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ") + " " + shellSuffix
        let process = Process()
        if colors {
            var env = ProcessInfo.processInfo.environment
            env["TERM"] = "xterm-256color"
            env["NO_COLOR"] = nil
            process.environment = env
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qc", command, "/dev/null"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    static func temporaryFile(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-cli-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(UUID().uuidString + "-" + name).path
    }
}
