import Foundation

/// Sweeps folders, zips and tars for property lists, keyed archives and SQLite databases,
/// found by content, and reports each one as a `SweepItem`.
///
/// ```swift
/// let report = try Sweeper(options: SweepOptions(jobs: 4)).sweep(["extraction.tar.gz"])
/// for item in report.items where item.verdict == .refused { print(item.path, item.refusedClasses) }
/// ```
///
/// Nothing is unpacked to disk except SQLite databases inside containers, which are copied to a
/// private temporary folder and removed once read (see `TemporaryFolder`). Databases in folders
/// are read where they lie through `StoreConnection.openForReading`, which changes nothing.
/// Every limit applies per item; a damaged item is an `unreadable` record and the sweep goes on.
public struct Sweeper: Sendable {
    public var options: SweepOptions

    public init(options: SweepOptions = SweepOptions()) {
        self.options = options
    }

    /// Sweeps `paths`, handing each item to `emit` as it is found.
    ///
    /// Items are found on `options.jobs` threads, in no fixed order (in walk order with one
    /// job). `emit` and `progress` are called one at a time, never concurrently, from those
    /// threads.
    ///
    /// - Parameters:
    ///   - paths: folders, zips, tars (plain, gzip, bzip2 or xz), or single files.
    ///   - progress: called after each file or member; when given, folders are walked once
    ///     first to total their sizes.
    ///   - shouldStop: asked after each item is emitted, one at a time as `emit` is; once it
    ///     says yes, nothing more is read or emitted and the sweep returns (the CLI stops when
    ///     its output failed or its reader went away, instead of reading a whole extraction
    ///     for nobody).
    ///   - emit: called with each item found.
    /// - Returns: the counts of everything emitted.
    /// - Throws: `SweepError` when a path does not exist or cannot be read at all, before
    ///   anything is swept.
    public func sweep(_ paths: [String], progress: ((SweepProgress) -> Void)? = nil, shouldStop: (() -> Bool)? = nil,
                      emit: @escaping (SweepItem) -> Void) throws(SweepError) -> SweepSummary {
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw SweepError(path: path, message: errno == ENOENT ? "no such file or folder" : "cannot read: \(String(cString: strerror(errno)))")
            }
            let type = info.st_mode & S_IFMT
            guard type == S_IFDIR || type == S_IFREG else { throw SweepError(path: path, message: "not a folder or a file") }
            guard access(path, R_OK) == 0 else { throw SweepError(path: path, message: "cannot read: \(String(cString: strerror(errno)))") }
        }
        let run = try SweepRun(options: options, emit: emit, progress: progress, shouldStop: shouldStop)
        return run.run(paths)
    }

    /// Sweeps `paths` and returns every item with the summary.
    public func sweep(_ paths: [String]) throws(SweepError) -> SweepReport {
        nonisolated(unsafe) var items: [SweepItem] = []
        let summary = try sweep(paths) { items.append($0) }
        return SweepReport(items: items, summary: summary)
    }
}
