import PropertyList

/// The counts that close a sweep's output.
public struct SweepSummary: Sendable, Hashable {
    /// Items found (records written), nested ones included.
    public var items = 0
    public var byKind: [SweepItemKind: Int] = [:]
    public var byFormat: [PropertyListFormat: Int] = [:]
    /// For each class, how many archives hold at least one object of it.
    public var byClass: [String: Int] = [:]
    public var byVerdict: [SweepVerdict: Int] = [:]
    /// Items with an error (every `unreadable` item).
    public var errors = 0
    /// Files and container members looked at, items or not.
    public var examined = 0
    /// Their bytes, as their sizes say (a container's members count, not the container).
    public var examinedBytes: Int64 = 0
    /// Zips and tars opened, nested ones included.
    public var containers = 0
    /// Zips, tars and compressed files left unopened because libarchive, which reads them, is
    /// not installed: each has an `unreadable` record, and the sweep is incomplete (the CLI
    /// exits 1).
    public var containersNotOpened = 0
    /// Symbolic links, devices, FIFOs and sockets passed over in folders.
    public var skipped = 0
    /// Wall-clock time of the sweep.
    public var seconds: Double = 0

    public init() {}

    /// Counts one item.
    public mutating func add(_ item: SweepItem) {
        items += 1
        byKind[item.kind, default: 0] += 1
        if let format = item.format { byFormat[format, default: 0] += 1 }
        for entry in item.classes { byClass[entry.name, default: 0] += 1 }
        if let verdict = item.verdict { byVerdict[verdict, default: 0] += 1 }
        if item.error != nil { errors += 1 }
    }

    /// Classes by the number of archives holding them, most first, then by name.
    public var classCounts: [(name: String, count: Int)] {
        byClass.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
