import Foundation
import SystemInterface

/// Standard input saved to a private temporary file, for readers that need a file (SQLite).
struct StandardInputCopy {
    /// The private folder (mode 0700) holding the copy.
    let folder: String
    let path: String

    /// A copy of standard input when `argument` is `-`; nil for a path.
    static func ifNeeded(_ argument: String) throws(CommandFailure) -> StandardInputCopy? {
        guard argument == "-" else { return nil }
        let base = FileManager.default.temporaryDirectory.path
        let made: String
        switch TemporaryPaths.makeFolder(pathPrefix: base + "/archivist-stdin-") {
        case .success(let folder): made = folder
        case .failure(let error):
            throw CommandFailure(file: "<stdin>", message: "cannot make a temporary folder in \(base) to hold standard input: \(SystemError.reason(error.code))")
        }
        let copy = StandardInputCopy(folder: made, path: made + "/stdin.sqlite")
        let output = OutputFile(path: copy.path)
        do throws(CommandFailure) {
            try output.stream { (sink) throws(CommandFailure) in
                var chunk = [UInt8](repeating: 0, count: 1 << 20)
                while true {
                    let n = chunk.withUnsafeMutableBytes { FileIO.read(STDIN_FILENO, into: $0) }
                    if n == 0 { break }
                    if n < 0 {
                        throw CommandFailure(file: "<stdin>", message: "cannot read: \(SystemError.reason(errno))")
                    }
                    chunk.withUnsafeBytes { sink.write(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
                }
            }
        } catch {
            copy.remove()
            throw error
        }
        return copy
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
