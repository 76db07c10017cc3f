import Glibc

/// Where the verbs that decode one large archive allocate.
///
/// Verbs run on a worker thread with a deep stack (`DeepStackThread`), and glibc gives a second
/// thread an arena of its own, which grows by one `mprotect` call per step: for a 48 MB archive
/// decoded into 270 MB, a few thousand calls and a twentieth of the run in the kernel. With one
/// arena, the worker allocates from the main heap, which grows in large steps. Only the verbs
/// below, which allocate from one thread, use it: `sweep`, `migrate` and the PostgreSQL verbs run
/// several workers, which want an arena each.
enum MallocArena {
    static let singleThreadedVerbs: Set<String> = ["inspect", "unarchive", "check"]
    /// `M_ARENA_MAX` of `<malloc.h>`, a macro Swift does not import.
    static let arenaMaxParameter: Int32 = -8

    /// Makes every thread allocate from the main arena when `verb` is one of `singleThreadedVerbs`.
    /// Call before any other thread starts.
    static func configure(forVerb verb: String?) {
        guard let verb, singleThreadedVerbs.contains(verb) else { return }
        // `mallopt` is in <malloc.h>, which the Glibc module leaves out: found at run time.
        guard let symbol = dlsym(nil, "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaxParameter, 1)
    }
}
