import SystemInterface

/// Where the verbs that work on one thread allocate.
///
/// Verbs run on a worker thread with a deep stack (`DeepStackThread`), and glibc gives a second
/// thread an arena of its own, which grows by one `mprotect` call per step: for a 48 MB archive
/// decoded into 270 MB, a few thousand calls and a twentieth of the run in the kernel (20,000
/// calls converting a 35 MB property list). With one arena, the worker allocates from the main
/// heap, which grows in large steps. Every verb but those below, which run several workers that
/// want an arena each (`scan` and `migrate` of a store or a PostgreSQL table, `codegen`
/// reading a column, `sweep`), allocates from one thread. `convert` to XML writes with several
/// threads, but each allocates once per piece of a few hundred kilobytes, so they share the
/// main arena without waiting on it.
enum MallocArena {
    static let multiThreadedVerbs: Set<String> = ["scan", "migrate", "sweep", "codegen"]

    /// Makes every thread allocate from the main arena unless `verb` is one of
    /// `multiThreadedVerbs`. Call before any other thread starts.
    static func configure(forVerb verb: String?) {
        guard let verb, !multiThreadedVerbs.contains(verb) else { return }
        MallocTuning.useOneArena()
        // XML written in pieces allocates and frees a buffer of some hundreds of kilobytes per
        // piece: kept rather than handed back, a 35 MB file's conversion takes 2,900 page
        // faults instead of 8,600 (about a tenth of its time). Blocks of 4 MiB and more (a
        // growing output) are mapped apart as before.
        if verb == "convert" { MallocTuning.keepFreedMemory(below: 4 << 20) }
    }
}
