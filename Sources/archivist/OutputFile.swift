import Foundation

/// Where a verb writes: a path given with -o, or standard output for none or -.
struct OutputFile {
    let path: String?

    /// Writes `data` whole. A file is written beside its destination under a temporary name,
    /// flushed to disk and renamed into place, keeping the mode of the file it replaces, so a
    /// failure at any point leaves the destination as it was (byte for byte) and never half a
    /// file. A symbolic link is followed: the file it names is replaced, the link stays.
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
            try Self.replaceAtomically(path, with: data)
        } catch {
            throw CommandFailure(file: path, message: "cannot write: \(error.message)")
        }
    }

    struct WriteError: Error {
        var message: String
    }

    /// Write beside, fsync, keep the mode, rename, fsync the folder.
    static func replaceAtomically(_ path: String, with data: Data) throws(WriteError) {
        func failure(_ what: String) -> WriteError {
            WriteError(message: "\(what): \(String(cString: strerror(errno)))")
        }
        var destination = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
            destination = String(cString: resolved)
            free(resolved)
        }
        let existingMode: mode_t? = stat(destination, &info) == 0 ? info.st_mode & 0o7777 : nil
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        var template = Array("\(directory)/.\(url.lastPathComponent).archivist-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a temporary file in \(directory)") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            let written = data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += n
                }
                return true
            }
            guard written else { throw failure("cannot write \(temporary)") }
            // The replaced file's permissions, or what a new file gets under the umask.
            let mode: mode_t
            if let existingMode {
                mode = existingMode
            } else {
                let mask = umask(0)
                umask(mask)
                mode = 0o666 & ~mask
            }
            guard fchmod(fd, mode) == 0 else { throw failure("cannot set the mode of \(temporary)") }
            guard fsync(fd) == 0 else { throw failure("cannot flush \(temporary)") }
        }
        guard rename(temporary, destination) == 0 else { throw failure("cannot rename \(temporary) to \(destination)") }
        done = true
        // The rename itself reaches the disk once the folder is flushed.
        let folder = open(directory, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }
}
