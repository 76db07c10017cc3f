import Foundation
import PropertyList

/// The forms a sweep report is written in.
public enum SweepReportFormat: String, Sendable, CaseIterable {
    /// One JSON record a line, as items are found, then `{"summary": …}`.
    case jsonl
    /// One JSON document: `{"items": […], "summary": {…}}`.
    case json
    /// A line per item for people, then the summary.
    case text
    /// One self-contained page (see `SweepHTMLPage`).
    case html
}

/// Writes a sweep report piece by piece: `begin()`, `item(_:)` for each item as it is found,
/// then `end(_:)` with the summary. The same renderer writes a whole `SweepReport`.
public struct SweepReportWriter {
    public let format: SweepReportFormat
    /// The page's title (HTML): usually the paths swept.
    public var title: String
    private var written = 0
    private var html: SweepHTMLPage

    public init(format: SweepReportFormat, title: String = "archivist sweep") {
        self.format = format
        self.title = title
        html = SweepHTMLPage(title: title)
    }

    public func begin() -> Data {
        switch format {
        case .jsonl, .text: Data()
        case .json: Data("{\n\"items\" : [\n".utf8)
        case .html: html.begin()
        }
    }

    public mutating func item(_ item: SweepItem) -> Data {
        defer { written += 1 }
        switch format {
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
        switch format {
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
