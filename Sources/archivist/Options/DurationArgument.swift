import ArgumentParser
import Foundation

/// A length of time on the command line, as PostgreSQL writes its settings: `500ms`, `2s`,
/// `1.5s`, `5min`, `1h`; a bare number is seconds.
struct DurationArgument: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    var seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
    }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("min", 60), ("s", 1), ("m", 60), ("h", 3_600)]
        var number = text
        var scale = 1.0
        for unit in units where text.hasSuffix(unit.suffix) {
            number = String(text.dropLast(unit.suffix.count)).trimmingCharacters(in: .whitespaces)
            scale = unit.seconds
            break
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 31_536_000 else { return nil }
        seconds = value * scale
    }

    var description: String { seconds < 1 && seconds > 0 ? "\(Int((seconds * 1000).rounded()))ms" : "\(seconds)s" }

    static var defaultCompletionKind: CompletionKind { .default }
}
