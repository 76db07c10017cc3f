import Foundation
import PropertyList

/// One thing a sweep found: a property list, a keyed archive or a database, at the top of the
/// tree, inside a container, in a database cell or inside another document; or something that
/// claims to be one of those and does not read.
public struct SweepItem: Sendable, Hashable {
    /// Where it is, in a form anyone can follow (see `SweepPath`):
    /// `extraction.tar!/private/var/…/Store.sqlite#ZNOTE.ZDATA[Z_PK=12]/root.attachments[0]`.
    public var path: String
    public var kind: SweepItemKind
    /// The property-list format of a plist or an archive (also of a damaged one, when its head
    /// says); nil for databases.
    public var format: PropertyListFormat?
    /// The item's size in bytes.
    public var size: Int
    /// One line on what it holds: the root's type or class and summary, a store's entities.
    public var summary: String?
    /// For an archive, its classes (readable names) with their object counts, most first.
    public var classes: [SweepClassCount]
    /// For an archive, the allow-list's verdict.
    public var verdict: SweepVerdict?
    /// For a refused archive, the classes the allow-list refused.
    public var refusedClasses: [String]
    /// For a database, what `scan` says about each attribute.
    public var attributes: [SweepAttribute]
    /// Why the item could not be read, when it could not.
    public var error: String?
    /// For an archive, when `SweepOptions.capturesGraphs` is on: its object graph as compact
    /// `inspect --format json` (the HTML report draws it).
    public var graph: Data?
    /// Why an archive's graph was not captured (too many objects, the report's budget spent).
    public var graphOmitted: String?
    /// For an archive whose root is an attributed string (a Messages body) or a string: its
    /// text, whole, as the summary cannot hold it.
    public var text: String?
    /// For bookmark data: the path of the file it points to (`/Users/me/Documents/report.pages`).
    public var target: String?

    public init(path: String, kind: SweepItemKind, format: PropertyListFormat? = nil, size: Int, summary: String? = nil,
                classes: [SweepClassCount] = [], verdict: SweepVerdict? = nil, refusedClasses: [String] = [],
                attributes: [SweepAttribute] = [], error: String? = nil, graph: Data? = nil, graphOmitted: String? = nil) {
        self.path = path
        self.kind = kind
        self.format = format
        self.size = size
        self.summary = summary
        self.classes = classes
        self.verdict = verdict
        self.refusedClasses = refusedClasses
        self.attributes = attributes
        self.error = error
        self.graph = graph
        self.graphOmitted = graphOmitted
    }

    /// An item that could not be read.
    static func unreadable(_ path: String, format: PropertyListFormat? = nil, size: Int, _ error: String) -> SweepItem {
        SweepItem(path: path, kind: .unreadable, format: format, size: size, error: error)
    }
}
