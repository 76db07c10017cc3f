/// Every form Archivist writes a report or a document in, by the name its verbs take after
/// `--format` and `--to`: one vocabulary, of which each renderer, and each verb, offers the part
/// it writes (`SweepReportWriter.formats`, `KeyedArchiveInspection.formats`).
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    /// Lines for people, colored on a terminal.
    case text
    /// One JSON document.
    case json
    /// JSON Lines: one record a line, written as each is found.
    case jsonl
    /// A Graphviz graph.
    case dot
    /// One self-contained HTML page, readable offline.
    case html
    /// An XML property list, as Foundation writes it.
    case xml
    /// A binary property list (`bplist00`).
    case binary
    /// A Swift literal, as `plutil -convert swift` writes it.
    case swift
    /// An Objective-C literal, as `plutil -convert objc` writes it.
    case objc
    /// A value as `plutil -extract … raw` prints it.
    case raw
    /// A keyed archive (an NSArchiver typedstream rewritten as one).
    case keyed
}
