import Foundation
import KeyedArchive
import PropertyList

/// One run of the harness: every input through both readers, the differences tallied, the
/// unexplained ones printed.
struct ParityRun {
    var settings: ParitySettings

    /// How the two outcomes of one input compare.
    enum Comparison: String, CaseIterable {
        case sameValue = "both read, same format and value"
        case bothRefused = "both refused"
        case weRefuse = "CF reads, Archivist refuses"
        case cfRefuses = "Archivist reads, CF refuses"
        case format = "both read, formats differ"
        case value = "both read, values differ"
        case cfCrashed = "CF crashed"
        case cfHung = "CF hung"
        case cannotTell = "CF cannot tell (Archivist refuses an object in an array the check cannot follow)"

        var isDifference: Bool { self != .sameValue && self != .bothRefused && self != .cannotTell }
    }

    static func compare(cf: ParityOutcome, ours: ParityOutcome) -> Comparison {
        switch (cf, ours) {
        case (.crashed, _): return .cfCrashed
        case (.hung, _): return .cfHung
        case (.refused, .refused): return .bothRefused
        case (.accepted, .refused): return .weRefuse
        case (.refused, .accepted): return .cfRefuses
        case (.accepted(let f1, let v1), .accepted(let f2, let v2)):
            if f1 != f2 { return .format }
            return v1.canonicalBytes == v2.canonicalBytes ? .sameValue : .value
        default: return .bothRefused
        }
    }

    /// Archivist's answer for `bytes` as a keyed archive: accepted (no value compared) or refused.
    static func archivistArchiveOutcome(_ bytes: [UInt8]) -> ParityOutcome {
        do {
            // Foundation's unarchiver hands back entries that are no objects; so does this
            // (the default refuses them: docs/parity.md).
            var options = KeyedArchiveReadOptions()
            options.keepsEntriesThatAreNoObjects = true
            _ = try KeyedArchive(data: Data(bytes), options: options)
            return .accepted(format: .binary, value: .null)
        } catch {
            return .refused(message: error.description)
        }
    }

    /// The readers' answer in CF's mode (`readsBeyondCoreFoundation` off); the default reading
    /// is held to it by `BeyondCoreFoundationCheck`.
    static func archivistOutcome(_ bytes: [UInt8]) -> ParityOutcome {
        BeyondCoreFoundationCheck.coreFoundationOutcome(bytes)
    }

    func run() throws -> Int32 {
        if settings.roundTrip {
            return RoundTrip.run(corpus: ParityCorpus.locate(settings.corpus), extraFiles: settings.files, verbose: settings.show > 0)
        }
        if !settings.files.isEmpty { return try showFiles() }
        guard let corpus = ParityCorpus.locate(settings.corpus) else {
            print("archivist-parity: no corpus (../shared/corpus/INDEX.tsv or ARCHIVIST_CORPUS); nothing to compare")
            return 0
        }
        let known = FileManager.default.fileExists(atPath: settings.known)
            ? try KnownDifferences(contentsOf: URL(fileURLWithPath: settings.known)) : KnownDifferences()
        if let directory = settings.saveDifferences {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let oracle = OracleProcess(timeoutSeconds: settings.timeoutSeconds)
        defer { oracle.stop() }

        let started = Date()
        var tally: [Comparison: Int] = [:]
        var explained: [String: Int] = [:]
        var unexplained: [(key: String, comparison: Comparison, cf: ParityOutcome, ours: ParityOutcome)] = []
        var unexplainedCount: [Comparison: Int] = [:]
        var byMutation: [String: (count: Int, example: String)] = [:]
        var inputs = 0
        var archiveInputs = 0
        var beyondWarned = 0
        var beyondUnwarned: [(key: String, what: String)] = []
        var files = 0
        var missing = 0

        // The corpus files, then the inputs written by hand ("generated#…").
        let sources: [ParityCorpus.Entry?] = corpus.entries + [nil]
        corpusLoop: for entry in sources {
            var cases: [(name: String, bytes: [UInt8])]
            var archiveCases: [(name: String, bytes: [UInt8])] = []
            let path: String
            if let entry {
                guard let data = FileManager.default.contents(atPath: entry.url.path) else {
                    missing += 1
                    continue
                }
                files += 1
                let original = [UInt8](data)
                path = entry.path
                cases = [("", original)] + (settings.originalsOnly ? [] : ParityMutations.mutations(of: original, entry: entry))
                if let (value, _) = try? PropertyListReader().read(data), ArchiveMutations.isArchive(value) {
                    archiveCases = ArchiveMutations.mutations(of: value)
                    if settings.originalsOnly { archiveCases = Array(archiveCases.prefix(1)) }
                }
            } else {
                path = "generated"
                cases = settings.originalsOnly ? [] : ParityMutations.generated()
            }
            let requests = cases.map { ($0.name, $0.bytes, OracleRequest.propertyList) }
                + archiveCases.map { ($0.name, $0.bytes, OracleRequest.keyedArchive) }
            for c in requests.map({ (name: $0.0, bytes: $0.1, request: $0.2) }) {
                let key = c.name.isEmpty ? path : path + "#" + c.name
                if let only = settings.only, !key.contains(only) { continue }
                guard inputs < settings.limit else { break corpusLoop }
                inputs += 1
                try oracle.send(c.bytes, as: c.request)
                let ours = c.request == .keyedArchive ? Self.archivistArchiveOutcome(c.bytes) : Self.archivistOutcome(c.bytes)
                let cf = oracle.receive()
                var comparison = Self.compare(cf: cf, ours: ours)
                if c.request == .keyedArchive {
                    archiveInputs += 1
                    comparison = Self.archiveComparison(comparison, cf: cf, ours: ours)
                }
                tally[comparison, default: 0] += 1
                if c.request == .propertyList {
                    switch BeyondCoreFoundationCheck.verdict(c.bytes, coreFoundationMode: ours) {
                    case .same: break
                    case .warned: beyondWarned += 1
                    case .unwarned(let what): beyondUnwarned.append((key, what))
                    }
                }
                guard comparison.isDifference else { continue }
                if let row = known.row(for: key, cf: cf, ours: ours) {
                    explained[row.name, default: 0] += 1
                    continue
                }
                unexplainedCount[comparison, default: 0] += 1
                if settings.byMutation {
                    let group = comparison.rawValue + " | " + Self.mutationGroup(c.name)
                    let previous = byMutation[group]
                    byMutation[group] = ((previous?.count ?? 0) + 1, previous?.example ?? key)
                }
                if unexplained.count < max(settings.show, 0) || settings.saveDifferences != nil {
                    unexplained.append((key, comparison, cf, ours))
                }
                if let directory = settings.saveDifferences {
                    let name = key.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "=" ? $0 : "_" }
                    let base = URL(fileURLWithPath: directory).appendingPathComponent(String(name))
                    try Data(c.bytes).write(to: base)
                    let note = "\(key)\n\(comparison.rawValue)\nCF:        \(cf.summary)\nArchivist: \(ours.summary)\n"
                    try Data(note.utf8).write(to: base.appendingPathExtension("txt"))
                }
            }
        }
        let seconds = Date().timeIntervalSince(started)

        for (i, d) in unexplained.prefix(settings.show).enumerated() {
            print("\(i + 1). \(d.key): \(d.comparison.rawValue)")
            print("   CF:        \(d.cf.summary)")
            print("   Archivist: \(d.ours.summary)")
            if case .accepted(_, let a) = d.cf, case .accepted(_, let b) = d.ours,
               let where_ = ParityValue.firstDifference(cf: a, ours: b) {
                print("   first difference: \(where_)")
            }
        }
        for (group, n) in byMutation.sorted(by: { $0.value.count > $1.value.count }) {
            print("\(n.count)\t\(group)\t(e.g. \(n.example))")
        }
        for (key, what) in beyondUnwarned.prefix(max(settings.show, 5)) { print("beyond CF without a warning: \(key): \(what)") }
        let differences = unexplainedCount.values.reduce(0, +) + beyondUnwarned.count
        print("archivist-parity: \(inputs) inputs from \(files) corpus files (\(missing) listed but absent) in \(String(format: "%.1f", seconds)) s; CF worker started \(oracle.starts) times")
        print("  of which \(archiveInputs) keyed archives given to NSKeyedUnarchiver and KeyedArchive")
        print("  the default reading (beyond CF where CF refuses): \(beyondWarned) read with a warning, \(beyondUnwarned.count) differ without one")
        for comparison in Comparison.allCases {
            let n = tally[comparison, default: 0]
            guard n > 0 else { continue }
            let open = unexplainedCount[comparison, default: 0]
            print("  \(comparison.rawValue): \(n)" + (comparison.isDifference ? " (\(n - open) explained, \(open) not)" : ""))
        }
        for row in known.rows {
            let n = explained[row.name, default: 0]
            if n == 0, settings.only == nil, settings.limit == .max, !settings.originalsOnly {
                print("  warning: row \(row.name) (line \(row.line)) explains no difference any more")
            }
        }
        if differences > 0 {
            print("archivist-parity: \(differences) differences not in \(settings.known)")
            return 1
        }
        print("archivist-parity: no difference outside \(settings.known)")
        return 0
    }

    /// An archive's comparison: where CF read an archive without following the objects in its
    /// arrays, and Archivist refuses one of those (its error's key path goes through an array
    /// element), CF cannot tell.
    static func archiveComparison(_ comparison: Comparison, cf: ParityOutcome, ours: ParityOutcome) -> Comparison {
        // Archives are compared by verdict only.
        if comparison == .value { return .sameValue }
        guard comparison == .weRefuse, case .accepted(_, let value) = cf, value == ArchiveOracle.partial,
              case .refused(let message) = ours, let path = message.range(of: "(in ", options: .backwards) else { return comparison }
        return message[path.upperBound...].contains("[") ? .cannotTell : comparison
    }

    /// A mutation's name with its numbers taken out, so that alike mutations count together.
    static func mutationGroup(_ name: String) -> String {
        if name.isEmpty { return "(original)" }
        var out = ""
        var inDigits = false
        for ch in name {
            if ch.isNumber {
                if !inDigits { out += "#" }
                inDigits = true
            } else {
                inDigits = false
                out.append(ch)
            }
        }
        return out
    }

    /// `--cf FILE...`: both answers for each file.
    func showFiles() throws -> Int32 {
        let oracle = OracleProcess(timeoutSeconds: settings.timeoutSeconds)
        defer { oracle.stop() }
        var status: Int32 = 0
        for path in settings.files {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                status = 1
                continue
            }
            let bytes = [UInt8](data)
            try oracle.send(bytes)
            let cf = oracle.receive()
            let ours = Self.archivistOutcome(bytes)
            let comparison = Self.compare(cf: cf, ours: ours)
            print("\(path): \(comparison.rawValue)")
            print("   CF:        \(cf.summary)")
            print("   Archivist: \(ours.summary)")
            if comparison.isDifference { status = 1 }
        }
        return status
    }
}
