import ArchiveReports
import Foundation
import PropertyList

/// Writes a sweep report piece by piece: `begin()`, `item(_:)` for each item as it is found,
/// then `end(_:)` with the summary. The same renderer writes a whole `SweepReport`.
public struct SweepReportWriter {
    /// The formats a sweep report is written in, in the order `archivist sweep` lists them:
    /// `jsonl` (one JSON record a line, as items are found, then `{"summary": …}`), `json` (one
    /// document: `{"items": […], "summary": {…}}`), `text` (a line per item for people, then
    /// the summary) and `html` (one self-contained page, see `SweepHTMLPage`).
    public static let formats: [OutputFormat] = [.jsonl, .json, .text, .html]

    /// The form written, one of `formats`.
    private enum Form {
        case jsonl, json, text, html
    }

    public let format: OutputFormat
    /// The page's title (HTML): usually the paths swept.
    public var title: String
    private let form: Form
    private var written = 0
    private var html: SweepHTMLPage

    /// A writer of `format`; nil when it is not one of `formats`.
    public init?(format: OutputFormat, title: String = "archivist sweep") {
        switch format {
        case .jsonl: form = .jsonl
        case .json: form = .json
        case .text: form = .text
        case .html: form = .html
        default: return nil
        }
        self.format = format
        self.title = title
        html = SweepHTMLPage(title: title)
    }

    public func begin() -> Data {
        switch form {
        case .jsonl, .text: Data()
        case .json: Data("{\n\"items\" : [\n".utf8)
        case .html: html.begin()
        }
    }

    public mutating func item(_ item: SweepItem) -> Data {
        defer { written += 1 }
        switch form {
        case .jsonl:
            return SweepJSON.write(item.jsonValue) + Data("\n".utf8)
        case .json:
            return Data((written == 0 ? "" : ",\n").utf8) + SweepJSON.write(item.jsonValue)
        case .text:
            return Data((SweepReportText.line(item) + "\n").utf8)
        case .html:
            return html.item(item)
        }
    }

    public mutating func end(_ summary: SweepSummary) -> Data {
        switch form {
        case .jsonl:
            var d = PropertyListDictionary()
            d.append(key: "summary", value: summary.jsonValue)
            return SweepJSON.write(.dictionary(d)) + Data("\n".utf8)
        case .json:
            return Data(((written == 0 ? "" : "\n") + "],\n\"summary\" : ").utf8) + SweepJSON.write(summary.jsonValue, pretty: true)
                + Data("\n}\n".utf8)
        case .text:
            return Data(SweepReportText.summary(summary).utf8)
        case .html:
            return html.end(summary)
        }
    }

    /// A whole report.
    public mutating func write(_ report: SweepReport) -> Data {
        var out = begin()
        for item in report.items { out += self.item(item) }
        out += end(report.summary)
        return out
    }
}
