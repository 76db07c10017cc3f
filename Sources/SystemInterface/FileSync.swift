#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Durable writes: handing a file's pages to the disk, and waiting until they are there.
///
/// On Linux `fsync` and `fdatasync` wait for the device; on Darwin they only hand the data to
/// the drive, which may keep it in its cache, so a durable sync there is `fcntl(F_FULLFSYNC)`,
/// with `fsync` where the file system does not support it (as SQLite does).
package enum FileSync {
    /// Waits until the file's data and metadata are on the disk.
    ///
    /// - Returns: nil on success; else the error.
    package static func sync(_ fd: Int32) -> SystemCallError? {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return nil }
        #endif
        return fsync(fd) == 0 ? nil : .last
    }

    /// Waits until the file's data is on the disk (and the metadata needed to read it back):
    /// `fdatasync` on Linux, a full sync on Darwin, which has no cheaper durable call.
    ///
    /// - Returns: nil on success; else the error.
    package static func syncData(_ fd: Int32) -> SystemCallError? {
        #if os(Linux)
        return fdatasync(fd) == 0 ? nil : .last
        #else
        return sync(fd)
        #endif
    }

    /// Makes a rename or a new name in `folder` durable: syncs the folder itself. A folder that
    /// cannot be opened or synced is no failure (some file systems refuse), so nothing is
    /// returned.
    package static func syncFolder(_ folder: String) {
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = sync(fd)
        close(fd)
    }

    /// Starts writing `length` bytes at `offset` of the file to the disk without waiting for
    /// them (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`, on Linux), so that a later sync has
    /// less left to do. Durability still rests on that sync. Does nothing where the call does
    /// not exist (Darwin, or a C library without it).
    package static func startWriteback(_ fd: Int32, offset: Int, length: Int) {
        #if os(Linux)
        _ = syncFileRange?(fd, Int64(offset), Int64(length), 2 /* SYNC_FILE_RANGE_WRITE */)
        #endif
    }

    #if os(Linux)
    /// `sync_file_range(2)`, which glibc has but the Glibc module leaves out: found at run time.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()
    #endif
}
