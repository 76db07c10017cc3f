import Foundation

extension ArchivistProcess {
    /// Runs `archivist` with its standard output sent to `output` (a file handle on /dev/full, a
    /// pipe nobody reads…) and returns the status and what it wrote to standard error.
    static func run(_ arguments: [String], standardOutput output: FileHandle, stdin: Data? = nil,
                    environment: [String: String] = [:]) throws -> (status: Int32, err: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let err = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errData, as: UTF8.self))
    }

    /// Whether tests can run `archivist` as an ordinary user: they run as root and setpriv(1)
    /// is there.
    static let canRunAsAnotherUser = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// Runs `archivist` as the user `nobody` (uid and gid 65534, no other groups), through
    /// setpriv(1), as an examiner without privileges would.
    static func runAsNobody(_ arguments: [String]) throws -> Result {
        try run(URL(fileURLWithPath: "/usr/bin/setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path] + arguments)
    }

    /// A new empty folder under the test's temporary folder.
    static func temporaryFolder(_ name: String) throws -> String {
        let path = temporaryFile(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// The bytes and modification time of every file in a folder, and the folder's own, to show
/// that reading changed nothing.
struct FolderSnapshot: Equatable, CustomStringConvertible {
    struct FileState: Equatable {
        var name: String
        var bytes: Data
        var modified: timespec
        var mode: mode_t

        static func == (a: FileState, b: FileState) -> Bool {
            a.name == b.name && a.bytes == b.bytes && a.mode == b.mode
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        }
    }

    var files: [FileState]
    var folderModified: timespec

    init(_ folder: String) throws {
        files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().compactMap { name in
            let path = folder + "/" + name
            var info = stat()
            stat(path, &info)
            guard info.st_mode & S_IFMT == S_IFREG else { return nil }
            return FileState(name: name, bytes: try Data(contentsOf: URL(fileURLWithPath: path)), modified: info.st_mtim, mode: info.st_mode)
        }
        var info = stat()
        stat(folder, &info)
        folderModified = info.st_mtim
    }

    static func == (a: FolderSnapshot, b: FolderSnapshot) -> Bool {
        a.files == b.files && a.folderModified.tv_sec == b.folderModified.tv_sec && a.folderModified.tv_nsec == b.folderModified.tv_nsec
    }

    var description: String {
        files.map { "\($0.name) \($0.bytes.count) bytes, mtime \($0.modified.tv_sec).\($0.modified.tv_nsec)" }.joined(separator: "; ")
            + "; folder mtime \(folderModified.tv_sec).\(folderModified.tv_nsec)"
    }
}
