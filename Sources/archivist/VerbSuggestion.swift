import ArgumentParser

/// "Did you mean": the verb nearest to one that does not exist.
enum VerbSuggestion {
    /// Whether `word` is one of `verbs(of:)`, whose names are worked out only up to it (each costs a look at its type).
    static func isVerb(_ word: String, of command: any ParsableCommand.Type) -> Bool { word == "help" || command.configuration.subcommands.contains { $0._commandName == word || $0.configuration.aliases.contains(word) } }
    /// The verbs the root command knows, with `help`.
    static func verbs(of command: any ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases } + ["help"]
    }

    /// The known verb closest to `word`: one it starts, or one a couple of typing slips away
    /// (a swapped pair of letters counts as one slip, as in `pritn`); nil when none is close.
    static func nearest(_ word: String, among verbs: [String]) -> String? {
        let typed = word.lowercased()
        if typed.count >= 2, let prefixed = verbs.first(where: { $0.hasPrefix(typed) }) { return prefixed }
        let scored = verbs.map { ($0, distance(Array(typed), Array($0))) }.min { $0.1 < $1.1 }
        guard let (verb, slips) = scored, slips <= max(1, min(2, verb.count / 3)) else { return nil }
        return verb
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbouring letters.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
