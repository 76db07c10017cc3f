#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing file descriptors: each call retried when a signal interrupts it, and
/// whole buffers written or read by loops, so that no caller repeats them. Empty buffers are
/// fine everywhere (no pointer is unwrapped by force).
package enum FileIO {
    /// One `read(2)` into `buffer`, retried on `EINTR`.
    ///
    /// - Returns: the bytes read (0 at the end of the input), or -1 with `errno` set.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = systemRead(fd, base, buffer.count)
            if n < 0, errno == EINTR { continue }
            return n
        }
    }

    /// One `write(2)` of `bytes`, retried on `EINTR`.
    ///
    /// - Returns: the bytes written, or -1 with `errno` set.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        while true {
            let n = systemWrite(fd, base, bytes.count)
            if n < 0, errno == EINTR { continue }
            return n
        }
    }

    /// Writes all of `bytes`, however many calls it takes.
    ///
    /// - Returns: nil when everything was written; else the error (`EIO` when the system wrote
    ///   nothing and said nothing).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> SystemCallError? {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if n < 0 { return .last }
            if n == 0 { return SystemCallError(EIO) }
            offset += n
        }
        return nil
    }

    /// Writes all of `bytes` at `offset` of the file (`pwrite(2)`), over whatever is there.
    ///
    /// - Returns: nil when everything was written; else the error.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> SystemCallError? {
        guard let base = bytes.baseAddress else { return nil }
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, base + done, bytes.count - done, off_t(offset + done))
            if n > 0 {
                done += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                return n < 0 ? .last : SystemCallError(EIO)
            }
        }
        return nil
    }

    /// Fills `buffer` from `offset` of the file (`pread(2)`), or as much as there is before its
    /// end.
    ///
    /// - Returns: the bytes read (fewer than `buffer.count` only at the end of the file), or -1
    ///   with `errno` set.
    package static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            let n = pread(fd, base + filled, buffer.count - filled, off_t(offset + filled))
            if n < 0, errno == EINTR { continue }
            if n < 0 { return -1 }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    // The C library's read and write, by a name no method shadows.
    private static func systemRead(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, base, count)
        #elseif canImport(Musl)
        Musl.read(fd, base, count)
        #else
        Darwin.read(fd, base, count)
        #endif
    }

    private static func systemWrite(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, base, count)
        #elseif canImport(Musl)
        Musl.write(fd, base, count)
        #else
        Darwin.write(fd, base, count)
        #endif
    }
}
