import Foundation

/// An open output: standard output, a file being written beside its destination (atomic and
/// durable: synced, then renamed over it, keeping the permission mode of the file it replaces),
/// or a device or pipe named as the destination. The CLI's `OutputFile` opens one.
///
/// Writes never throw, so streaming printers can hand it their pieces through a plain closure;
/// the first failure is kept, later writes are dropped, and `commit()` reports it. A closed pipe
/// (EPIPE, the reader went away, as with `| head`) is not a failure: the rest of the output is
/// dropped quietly and the verb ends with its own status, as Unix tools do.
package final class OutputSink {
    private let fd: Int32
    /// Where a file is being written before it is renamed to `destination`; nil when writing
    /// straight to standard output, a device or a pipe.
    private let temporaryPath: String?
    private let destination: String?
    private var buffer: [UInt8] = []
    private let bufferSize = 1 << 16
    /// The first write error, reported by `commit()`.
    private var failure: Int32?
    /// The reader closed the pipe: everything else is dropped.
    package private(set) var readerWentAway = false
    private var finished = false
    /// For a file: how far it has been written, and from where its pages have not yet been
    /// handed to the disk (see `startWriteback`).
    private var written = 0
    private var writebackStart = 0
    /// Syncs a large file's data while it is written; started at its first `writebackChunk`.
    private var backgroundSync: BackgroundFileSync?
    /// Whether a thread to start it was looked for: once is enough.
    private var triedBackgroundSync = false
    /// Writes the large pieces of streaming writers while they produce the next; started at the
    /// first such piece. While a piece is in flight, `written`, `failure`, `readerWentAway` and
    /// the file belong to its thread: everything else that touches them calls `settle()` first.
    private var backgroundWriter: BackgroundOutputWriter?
    private var triedBackgroundWriter = false
    /// Whether large pieces may go to the background writer. A verb whose writer already keeps
    /// every core busy (XML written by several threads) turns it off before writing: a third
    /// thread on two cores only takes time from them.
    package var writesPiecesInBackground = true

    /// Why an output could not be opened or finished.
    package enum Failure: Error, Sendable {
        /// The destination ends with `/` and names no folder.
        case noFolderNamed
        /// The destination is a folder.
        case destinationIsFolder
        /// The folder the file would be written in does not exist.
        case noFolder(String)
        /// The file beside the destination could not be made.
        case temporaryFile(SystemCallError)
        /// A call failed: opening, writing, syncing, renaming.
        case system(SystemCallError)
    }

    /// Opens `path` for writing: standard output when nil.
    package init(path: String?) throws(Failure) {
        buffer.reserveCapacity(bufferSize)
        guard let path else {
            fd = STDOUT_FILENO
            temporaryPath = nil
            destination = nil
            return
        }
        let target = Self.resolvingSymbolicLink(path)
        var existing = stat()
        if path.hasSuffix("/"), stat(target, &existing) != 0 {
            // `-o reports/` names a folder that is not there: say so, rather than what rename(2)
            // would say after the whole output was written beside it.
            throw .noFolderNamed
        }
        let exists = stat(target, &existing) == 0
        if exists, existing.st_mode & S_IFMT == S_IFDIR {
            throw .destinationIsFolder
        }
        if exists, existing.st_mode & S_IFMT != S_IFREG {
            // A device, a FIFO or a socket (/dev/stdout, /dev/null, a named pipe): it cannot be
            // replaced by renaming, and must not be; write into it.
            let opened = open(target, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else { throw .system(.last) }
            fd = opened
            temporaryPath = nil
            destination = nil
            return
        }
        if exists, access(target, W_OK) != 0 {
            throw .system(.last)
        }
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let opened: (fd: Int32, path: String)
        switch TemporaryPaths.makeFile(pathPrefix: (folder.isEmpty ? "." : folder) + "/." + name + ".archivist-") {
        case .success(let file):
            opened = file
        case .failure(let error):
            var folderInfo = stat()
            if error.code == ENOENT || stat(folder.isEmpty ? "." : folder, &folderInfo) != 0 {
                throw .noFolder(folder.isEmpty ? "." : folder)
            }
            throw .temporaryFile(error)
        }
        fd = opened.fd
        temporaryPath = opened.path
        destination = target
        // mkstemp makes the file 0600: give it the mode of the file it replaces, or the mode a
        // new file would get.
        let mode: mode_t = exists ? existing.st_mode & 0o7777 : 0o666 & ~Self.currentUmask
        fchmod(fd, mode)
        if exists, getuid() == 0, existing.st_uid != 0 || existing.st_gid != 0 {
            _ = fchown(fd, existing.st_uid, existing.st_gid)
        }
    }

    deinit {
        if !finished { abandon() }
    }

    /// The target of a symbolic link, so that writing through a link replaces the file it
    /// points to rather than the link itself.
    private static func resolvingSymbolicLink(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static var currentUmask: mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    /// Whether the output is a file written beside its destination: one that `abandon()` leaves
    /// as if nothing had been written, so a writer may stream into it and still give up.
    package var isTemporaryFile: Bool { temporaryPath != nil }

    /// Whether nothing more can be written: a write failed, or the reader of the pipe went away.
    /// Verbs that produce output for a long time stop when it turns true.
    package var hasStopped: Bool {
        settle()
        return failure != nil || readerWentAway
    }

    // MARK: Writing

    package func write(_ bytes: UnsafeRawBufferPointer) {
        settle()
        guard failure == nil, !readerWentAway, bytes.count > 0 else { return }
        if writesPiecesInBackground, Self.backgroundPieces.contains(bytes.count), let writer = startBackgroundWriter() {
            flush()
            if writer.submit(bytes) { return }
        }
        if buffer.count + bytes.count <= bufferSize {
            buffer.append(contentsOf: bytes)
            return
        }
        flush()
        if bytes.count >= bufferSize {
            writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    package func write(_ data: Data) {
        data.withUnsafeBytes { write($0) }
    }

    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Hands the buffered bytes to the system now (`lint` does after each file).
    package func flush() {
        settle()
        guard !buffer.isEmpty else { return }
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        pending.withUnsafeBytes { writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, !readerWentAway, let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            // A file is written a few megabytes at a time, each handed to the disk as it is done.
            let piece = temporaryPath == nil ? bytes.count - offset : min(bytes.count - offset, Self.writebackChunk)
            let n = FileIO.write(fd, UnsafeRawBufferPointer(start: base + offset, count: piece))
            if n > 0 {
                offset += n
                written += n
                if temporaryPath != nil, written - writebackStart >= Self.writebackChunk { startWriteback() }
            } else if n < 0, errno == EPIPE {
                readerWentAway = true
                return
            } else {
                failure = n < 0 ? errno : EIO
                return
            }
        }
    }

    /// A file's pages are handed to the disk every this many bytes.
    package static let writebackChunk = 8 << 20

    /// The sizes of the pieces written on the background writer's thread: the streaming
    /// writers' chunks (a megabyte). Smaller writes are buffered; a larger one is a whole
    /// output written at once, with nothing to overlap and more to copy.
    static let backgroundPieces = (256 << 10)...(4 << 20)

    /// The background writer, started at the first piece it takes; nil when no thread could be
    /// made.
    private func startBackgroundWriter() -> BackgroundOutputWriter? {
        if !triedBackgroundWriter {
            triedBackgroundWriter = true
            // Unowned and unchecked: the thread is joined by `commit()` or `abandon()`, which
            // `deinit` calls, before the sink's memory is freed.
            backgroundWriter = BackgroundOutputWriter.start(largestPiece: Self.backgroundPieces.upperBound) { [unowned(unsafe) self] piece in
                writeAll(piece)
            }
        }
        return backgroundWriter
    }

    /// Waits until the background writer has written the piece it holds: after this the sink's
    /// state is this thread's to read and change.
    private func settle() {
        backgroundWriter?.waitUntilWritten()
    }

    /// Writes what the background writer holds and stops its thread.
    private func stopBackgroundWriter() {
        backgroundWriter?.finish()
        backgroundWriter = nil
    }

    /// Writes `bytes` at `offset` of a file written beside its destination, over whatever is
    /// there: for a writer that lays a file out as it goes and fills in places later
    /// (`BinaryPropertyListConverter.transcodeBinary(_:to:)`). Like `write`, it never throws; the
    /// first failure is reported by `commit()`.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        settle()
        guard temporaryPath != nil else {
            failure = failure ?? ESPIPE
            return
        }
        flush()
        guard failure == nil, bytes.baseAddress != nil else { return }
        if let error = FileIO.writeAll(fd, bytes, at: offset) {
            failure = error.code
            return
        }
        if offset + bytes.count > written {
            written = offset + bytes.count
            if written - writebackStart >= Self.writebackChunk { startWriteback() }
        }
    }

    /// Drops everything written to a file beside its destination, for a writer that starts
    /// the file again.
    package func discardWritten() {
        settle()
        guard temporaryPath != nil else {
            failure = failure ?? ESPIPE
            return
        }
        buffer.removeAll(keepingCapacity: true)
        guard failure == nil else { return }
        if ftruncate(fd, 0) != 0 { failure = errno }
        if lseek(fd, 0, SEEK_SET) < 0, failure == nil { failure = errno }
        written = 0
        writebackStart = 0
    }

    /// Starts writing the pages written since the last call to the disk, without waiting for
    /// them (`FileSync.startWriteback`: `sync_file_range` on Linux), and asks
    /// `BackgroundFileSync` to sync them: the disk then works while the rest is produced, and the
    /// `fsync` of `commit()` waits only for the last few megabytes. Durability still rests on
    /// that `fsync`; this only starts the work sooner.
    private func startWriteback() {
        FileSync.startWriteback(fd, offset: writebackStart, length: written - writebackStart)
        writebackStart = written
        if !triedBackgroundSync {
            triedBackgroundSync = true
            backgroundSync = BackgroundFileSync.start(fd: fd)
        }
        backgroundSync?.request()
    }

    /// Stops the background syncs; the error of one that failed, if any.
    private func finishBackgroundSync() -> Int32? {
        defer { backgroundSync = nil }
        return backgroundSync?.finish()
    }

    // MARK: Ending

    /// Flushes and, for a file, syncs it and renames it into place.
    ///
    /// - Throws: the first failed write, sync or rename (`Failure.system`); the destination is
    ///   then as it was before.
    package func commit() throws(Failure) {
        flush()
        stopBackgroundWriter()
        finished = true
        if let failure {
            if temporaryPath != nil { discardTemporary() } else if fd != STDOUT_FILENO { close(fd) }
            throw .system(SystemCallError(failure))
        }
        guard let temporaryPath, let destination else {
            if fd != STDOUT_FILENO { close(fd) }
            return
        }
        if let code = finishBackgroundSync() {
            discardTemporary()
            throw .system(SystemCallError(code))
        }
        if let error = FileSync.sync(fd) {
            discardTemporary()
            throw .system(error)
        }
        if close(fd) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw .system(SystemCallError(code))
        }
        if rename(temporaryPath, destination) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw .system(SystemCallError(code))
        }
        // Make the rename itself durable; a folder that cannot be synced is no failure.
        FileSync.syncFolder((destination as NSString).deletingLastPathComponent)
    }

    /// Gives up: a file destination is left untouched and the temporary file removed.
    package func abandon() {
        stopBackgroundWriter()
        finished = true
        buffer.removeAll()
        if temporaryPath != nil {
            discardTemporary()
        } else if fd != STDOUT_FILENO {
            close(fd)
        }
    }

    private func discardTemporary() {
        guard let temporaryPath else { return }
        // The syncing thread uses the descriptor: it must be done before the number is freed.
        _ = finishBackgroundSync()
        close(fd)
        unlink(temporaryPath)
    }
}

