#if canImport(Glibc)
import Glibc
#endif

/// Tuning of the C library's allocator, where it has any.
package enum MallocTuning {
    /// Makes every thread allocate from the main arena (`mallopt(M_ARENA_MAX, 1)`, glibc only):
    /// a program that does its work on one thread other than the main one then grows the main
    /// heap in large steps, instead of a second arena one `mprotect` call at a time. Call
    /// before any other thread starts. Does nothing elsewhere (Darwin's allocator has no
    /// arenas to limit).
    package static func useOneArena() {
        #if canImport(Glibc)
        // `mallopt` is in <malloc.h>, which the Glibc module leaves out: found at run time.
        guard let symbol = dlsym(nil, "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaxParameter, 1)
        #endif
    }

    /// Keeps memory freed below `bytes` for the next allocation instead of handing it back
    /// (`mallopt(M_MMAP_THRESHOLD, bytes)` and `mallopt(M_TRIM_THRESHOLD, 1 GiB)`, glibc only):
    /// a program that allocates, fills and frees buffers of some hundreds of kilobytes over and
    /// over (XML written in pieces) then reuses the same pages, where glibc's own thresholds
    /// give them back at each free and take a fault for every 4 KiB page of the next. Blocks of
    /// `bytes` and more are still mapped apart and unmapped when freed. Does nothing elsewhere.
    package static func keepFreedMemory(below bytes: Int) {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(mmapThresholdParameter, Int32(clamping: bytes))
        _ = mallopt(trimThresholdParameter, 1 << 30)
        #endif
    }

    /// `M_ARENA_MAX` of `<malloc.h>`, a macro Swift does not import.
    private static let arenaMaxParameter: Int32 = -8
    /// `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` of `<malloc.h>`.
    private static let trimThresholdParameter: Int32 = -1
    private static let mmapThresholdParameter: Int32 = -3
}
