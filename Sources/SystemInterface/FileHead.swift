#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The first bytes of a file, with its size and kind: what a sniffer needs to name a file (a
/// JPEG, an SQLite database…) without reading the rest of it.
package struct FileHead: Sendable {
    /// Up to the bytes asked for, fewer when the file is shorter; none from a file of another
    /// kind than regular unless it was asked to be read.
    package var bytes: [UInt8]
    /// The file's size in bytes, as `fstat` gives it.
    package var size: Int
    /// Whether it is a regular file; a pipe, a device or a socket is not.
    package var isRegularFile: Bool

    /// Why the head was not read: the file did not open (or `fstat` failed), or reading it failed.
    package enum Failure: Error, Sendable {
        case open(SystemCallError)
        case read(SystemCallError)
    }

    /// Up to `count` bytes from the start of the file at `path`. A file of another kind than
    /// regular is read only with `readingAnyKind` (one `read(2)`: a pipe might never end).
    package static func read(path: String, count: Int, readingAnyKind: Bool = false) -> Result<FileHead, Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.open(.last)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.open(.last)) }
        let isRegularFile = info.st_mode & S_IFMT == S_IFREG
        var head = FileHead(bytes: [], size: Int(info.st_size), isRegularFile: isRegularFile)
        guard isRegularFile || readingAnyKind else { return .success(head) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { buffer in
            isRegularFile ? FileIO.readFully(fd, into: buffer, at: 0) : FileIO.read(fd, into: buffer)
        }
        guard n >= 0 else { return .failure(.read(.last)) }
        bytes.removeSubrange(n...)
        head.bytes = bytes
        return .success(head)
    }
}
