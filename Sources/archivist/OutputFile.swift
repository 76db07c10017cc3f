import Foundation

/// Where a verb writes: a path given with -o, or standard output for none or -.
struct OutputFile {
    let path: String?

    /// Writes `data` whole. A file is written to a temporary name and renamed into place, so
    /// a failure never leaves half a file and the input is never touched.
    ///
    /// With `endsLineOnTerminal`, text that does not end a line gets a line break when it goes
    /// to a terminal (JSONEncoder's output has none, and the prompt would follow it); files and
    /// pipes get the bytes exactly.
    func write(_ data: Data, endsLineOnTerminal: Bool = false) throws(CommandFailure) {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(data)
            if endsLineOnTerminal, data.last != 0x0A, isatty(STDOUT_FILENO) == 1 {
                FileHandle.standardOutput.write(Data("\n".utf8))
            }
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure(file: path, message: "cannot write: \(error.localizedDescription)")
        }
    }
}
