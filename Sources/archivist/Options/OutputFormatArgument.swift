import ArchiveReports
import ArgumentParser
import Sweep

/// The part of `OutputFormat` one option offers, in the order its help lists them.
protocol OutputFormatOffer {
    static var formats: [OutputFormat] { get }
}

/// A `--format` or `--to` value: a name of `OutputFormat`, the one vocabulary of every verb, and
/// one of those `Offer` lists. Help, completions and the message for another name list only
/// those.
struct OutputFormatArgument<Offer: OutputFormatOffer>: ExpressibleByArgument, Hashable {
    let format: OutputFormat

    init(_ format: OutputFormat) {
        self.format = format
    }

    init?(argument: String) {
        guard let format = OutputFormat(rawValue: argument), Offer.formats.contains(format) else { return nil }
        self.format = format
    }

    /// Whether this names `format`: `--format json` is `format == .json`.
    static func == (lhs: Self, rhs: OutputFormat) -> Bool { lhs.format == rhs }

    var defaultValueDescription: String { format.rawValue }

    static var allValueStrings: [String] { Offer.formats.map(\.rawValue) }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `text` or `json`: the reports of `check`, `lint`, `scan`, `migrate`, `model` and `diff`.
enum ReportFormats: OutputFormatOffer {
    static let formats: [OutputFormat] = [.text, .json]
}

/// What `inspect` draws an archive as.
enum InspectFormats: OutputFormatOffer {
    static let formats = KeyedArchiveInspection.formats
}

/// A sweep report's forms.
enum SweepFormats: OutputFormatOffer {
    static let formats = SweepReportWriter.formats
}

/// The documents `convert` and `unarchive` write a value as.
enum DocumentFormats: OutputFormatOffer {
    static let formats: [OutputFormat] = [.xml, .binary, .json, .swift, .objc]
}

/// What `get` writes a value as.
enum ValueFormats: OutputFormatOffer {
    static let formats: [OutputFormat] = [.raw, .xml, .binary, .json]
}

/// What an edited property list is written back as (`set`, `insert`, `replace`, `remove`).
enum EditFormats: OutputFormatOffer {
    static let formats: [OutputFormat] = [.xml, .binary, .json]
}

/// The keyed archive `archive` writes.
enum ArchiveFormats: OutputFormatOffer {
    static let formats: [OutputFormat] = [.binary, .xml]
}

/// What `rewrite` writes: a keyed archive in binary or XML; `keyed` keeps the input's format
/// (binary for a typedstream).
enum RewriteFormats: OutputFormatOffer {
    static let formats: [OutputFormat] = [.binary, .xml, .keyed]
}
