/// What one benchmark run measures.
struct BenchmarkSettings {
    /// Dictionaries in the generated array; 200,000 gives about 2.6 million values.
    var dictionaryCount = 200_000
    /// Each operation is timed this many times and the fastest run kept.
    var repetitions = 3
    var markdown = false
    var skipFoundation = false
    /// When set, only write the generated inputs there (input.bplist, input.xml) and stop.
    var inputsDirectory: String?
}
