import Foundation

/// The harness's command line.
struct ParitySettings {
    var corpus: String?
    var known: String = "Tests/Parity/known-differences.tsv"
    /// Only inputs whose key contains this text.
    var only: String?
    var limit = Int.max
    /// How many unexplained differences to print in full.
    var show = 40
    var originalsOnly = false
    /// Print the unexplained differences counted by mutation (numbers in names taken out).
    var byMutation = false
    var saveDifferences: String?
    var timeoutSeconds = 10.0
    /// Files to show CF's and our answers for, instead of a run.
    var files: [String] = []
    /// `--round-trip [FILE…]`: byte-identical binary round trips instead of a run.
    var roundTrip = false

    init(_ arguments: [String]) throws {
        var i = 0
        func value() throws -> String {
            guard i + 1 < arguments.count else { throw ParityUsageError("\(arguments[i]) needs a value") }
            i += 1
            return arguments[i]
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--corpus": corpus = try value()
            case "--known": known = try value()
            case "--only": only = try value()
            case "--limit": limit = Int(try value()) ?? limit
            case "--show": show = Int(try value()) ?? show
            case "--originals-only": originalsOnly = true
            case "--by-mutation": byMutation = true
            case "--save-differences": saveDifferences = try value()
            case "--timeout": timeoutSeconds = Double(try value()) ?? timeoutSeconds
            case "--round-trip":
                roundTrip = true
                files = Array(arguments[(i + 1)...])
                i = arguments.count
                continue
            case "--cf":
                files = Array(arguments[(i + 1)...])
                i = arguments.count
                continue
            default: throw ParityUsageError("unknown argument \(arguments[i])")
            }
            i += 1
        }
    }
}
