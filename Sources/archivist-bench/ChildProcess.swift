import Foundation

/// A child process the benchmark starts and reads to its end: a measurement in a process of its
/// own (memory, store migration, the timing launcher) or a peer's script.
enum ChildProcess {
    /// This benchmark's own executable, for a measurement in a child of its own.
    static var benchmark: URL? {
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : Bundle.main.executableURL
    }

    /// Runs `executable` with `arguments` to its end: its standard output and exit status, or nil
    /// when it cannot start.
    static func run(_ executable: URL?, _ arguments: [String]) -> (output: Data, status: Int32)? {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (output, process.terminationStatus)
    }
}
