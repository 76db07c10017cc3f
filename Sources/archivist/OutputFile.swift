import Foundation

/// Where a verb writes: a path given with -o, or standard output for none or -.
struct OutputFile {
    let path: String?

    /// Writes `data` whole. A file is written to a temporary name and renamed into place, so
    /// a failure never leaves half a file and the input is never touched.
    func write(_ data: Data) throws(CommandFailure) {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure(file: path, message: "cannot write: \(error.localizedDescription)")
        }
    }
}
