/// A whole sweep as one value: every item, in the order found, and the summary. Renderers
/// (`SweepReportWriter`) write it as JSON Lines, JSON, text or HTML; the CLI streams the same
/// renderers item by item instead of holding the report.
public struct SweepReport: Sendable, Hashable {
    public var items: [SweepItem]
    public var summary: SweepSummary

    public init(items: [SweepItem], summary: SweepSummary) {
        self.items = items
        self.summary = summary
    }
}
