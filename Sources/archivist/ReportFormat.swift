import ArgumentParser

/// How a verb reports: for people, or for machines.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
