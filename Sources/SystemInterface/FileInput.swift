import Foundation

/// An input read whole, with a limit that is checked before reading past it.
///
/// Regular files are mapped: a 2 GB input costs address space, not a copy. With `populate`, the
/// mapping call itself brings the whole file in (`MemoryMap`'s populate advice), in large
/// reads, rather than a page fault at a time as a reader walks it; without, only the pages a
/// reader touches are read (a key path lookup looks at a few objects). Standard input, pipes
/// and devices are read in pieces.
package enum FileInput {
    /// Why an input was not read.
    package enum Failure: Error, Sendable {
        case noSuchFile
        case isFolder
        /// A regular file of `size` bytes, over the limit.
        case tooLarge(size: Int)
        /// A stream that went on past the limit.
        case overLimit
        /// A call failed: opening, `fstat`, reading.
        case system(SystemCallError)
    }

    /// The file at `path`, whole; more than `limit` bytes is refused before they are read.
    package static func read(path: String, limit: Int, populate: Bool) throws(Failure) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT ? .noSuchFile : .system(SystemCallError(code))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .system(SystemCallError(code))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            close(fd)
            throw .isFolder
        case S_IFREG:
            let size = Int(info.st_size)
            guard size <= limit else {
                close(fd)
                throw .tooLarge(size: size)
            }
            guard size > 0 else {
                close(fd)
                return Data()
            }
            guard let base = MemoryMap.mapFile(fd, size: size, populate: populate) else {
                // Some file systems cannot map; read instead.
                defer { close(fd) }
                return try readStream(fd, limit: limit)
            }
            close(fd)
            return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in MemoryMap.unmap(pointer, count) })
        default:
            // A FIFO, a device, a process substitution: read what comes.
            defer { close(fd) }
            return try readStream(fd, limit: limit)
        }
    }

    /// Reads `fd` to its end, stopping as soon as more than `limit` bytes have come.
    package static func readStream(_ fd: Int32, limit: Int) throws(Failure) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { FileIO.read(fd, into: $0) }
            if n == 0 { return data }
            if n < 0 {
                let code = errno
                throw code == EISDIR ? .isFolder : .system(SystemCallError(code))
            }
            guard data.count + n <= limit else { throw .overLimit }
            chunk.withUnsafeBytes { data.append(contentsOf: $0.prefix(n)) }
        }
    }
}
