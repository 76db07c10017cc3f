#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory from the system rather than from malloc: files mapped whole, large zeroed tables,
/// and advice on how their pages are used.
package enum MemoryMap {
    /// The size of a memory page (at least 4 KiB).
    package static let pageSize = max(Int(getpagesize()), 4096)

    /// The size of a huge page, which `adviseHugePages` asks for.
    package static let hugePageSize = 2 << 20

    /// Maps `size` bytes of an open file, read only and private.
    ///
    /// With `populate`, the system reads the whole file in with the mapping call itself
    /// (`MAP_POPULATE`, on Linux), in large reads, rather than a page fault at a time as a
    /// reader walks it; elsewhere the pages come as they are touched.
    ///
    /// - Returns: the mapping, to be given back with `unmap`; nil when the file cannot be mapped
    ///   (some file systems cannot), with `errno` set.
    package static func mapFile(_ fd: Int32, size: Int, populate: Bool) -> UnsafeMutableRawPointer? {
        var flags = MAP_PRIVATE
        #if os(Linux)
        if populate { flags |= mapPopulate }
        #endif
        guard let base = mmap(nil, size, PROT_READ, flags, fd, 0), base != MAP_FAILED else { return nil }
        return base
    }

    /// `bytes` of zeroed, writable memory, mapped fresh: its pages cost nothing until written.
    ///
    /// - Returns: the mapping, to be given back with `unmap`; nil when the system has no room.
    package static func mapZeroed(_ bytes: Int) -> UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        let anonymous = MAP_ANON
        #else
        let anonymous = MAP_ANONYMOUS
        #endif
        guard let base = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | anonymous, -1, 0), base != MAP_FAILED else { return nil }
        return base
    }

    /// Gives back a mapping made by `mapFile` or `mapZeroed`.
    package static func unmap(_ base: UnsafeMutableRawPointer, _ bytes: Int) {
        munmap(base, bytes)
    }

    /// Asks for the whole huge pages inside `byteCount` bytes from `start` to be backed by
    /// huge pages (`MADV_HUGEPAGE`, on Linux, where `transparent_hugepage` in its usual
    /// `madvise` mode gives them only to memory that asks), before they are first written.
    /// Smaller ranges, and other systems, are left alone.
    package static func adviseHugePages(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
        #if os(Linux)
        guard let start, byteCount >= hugePageSize else { return }
        let mask = UInt(hugePageSize - 1)
        let first = (UInt(bitPattern: start) &+ mask) & ~mask
        let end = (UInt(bitPattern: start) &+ UInt(byteCount)) & ~mask
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, Int(end - first), 14 /* MADV_HUGEPAGE */)
        #endif
    }

    /// Asks the system to back the whole pages in `from..<to` (addresses) now, writable, in one
    /// call (`MADV_POPULATE_WRITE`, Linux 5.14 and later), rather than one fault per page as they
    /// are first written. Where it cannot, the pages come one fault at a time as usual.
    package static func populateForWriting(from: Int, to: Int) {
        #if os(Linux)
        let page = pageSize
        // Whole pages only: the first may hold bytes already written, which stay as they are.
        let start = from & ~(page - 1)
        let end = to & ~(page - 1)
        if end > start, let address = UnsafeMutableRawPointer(bitPattern: start) {
            _ = madvise(address, end - start, 23 /* MADV_POPULATE_WRITE */)
        }
        #endif
    }

    #if os(Linux)
    /// `MAP_POPULATE` of `<sys/mman.h>`, which the Glibc module leaves out.
    private static let mapPopulate: Int32 = 0x8000
    #endif
}
