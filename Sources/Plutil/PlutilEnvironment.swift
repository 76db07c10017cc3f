import Foundation
import PropertyList

/// A write that failed, in words for a line on standard error (`archivist: cannot write
/// OUTPUT: REASON`); said as the environment says every such failure, not as plutil would.
public struct PlutilOutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The whole line, without its line break.
    public var line: String
    /// Whether standard output failed, which every later file would meet too: the run ends.
    public var isStandardOutput: Bool

    public init(line: String, isStandardOutput: Bool) {
        self.line = line
        self.isStandardOutput = isStandardOutput
    }

    public var description: String { line }
}

/// Where a plutil run reads and writes: standard input, files and standard output, standard
/// error, and the words for a file that is no property list. `archivist plutil` supplies one
/// that writes as every archivist verb writes (synced, renamed into place, mode kept).
public protocol PlutilEnvironment {
    /// Standard input, whole; more than `limit` bytes is a failure, in words.
    func readStandardInput(limit: Int) throws(PlutilInputError) -> Data
    /// Writes `data` whole to the file at `path`, replacing it, or to standard output when nil.
    func write(_ data: Data, to path: String?) throws(PlutilOutputError)
    /// Writes text to standard error.
    func writeError(_ text: String)
    /// A reader's failure on `data`, in words: by default its description.
    func describe(_ error: PropertyListError, data: Data) -> String
    /// What `data` is when it is a known format that is no property list (a JPEG, an SQLite
    /// database), in words; nil by default.
    func foreignContent(_ data: Data) -> String?
}

extension PlutilEnvironment {
    public func describe(_ error: PropertyListError, data: Data) -> String { error.description }
    public func foreignContent(_ data: Data) -> String? { nil }
}

/// Standard input that could not be read, in words.
public struct PlutilInputError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
