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

    /// `M_ARENA_MAX` of `<malloc.h>`, a macro Swift does not import.
    private static let arenaMaxParameter: Int32 = -8
}
