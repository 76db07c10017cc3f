/// Why a model cannot be read, and where.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The file or folder is missing or unreadable.
        case cannotRead
        /// The input is not a model of any kind Archivist reads.
        case notAModel
        /// The compressed cache, the archive or the XML breaks the rules of its format.
        case malformed
        /// A limit in `ModelReadOptions` was reached.
        case limitExceeded
        /// A `.momd` has no version whose entity hashes match the store's.
        case noMatchingVersion
    }

    public var code: Code
    public var message: String
    /// What was being read: a path, or `Z_MODELCACHE` of a store.
    public var source: String?
    /// Where in it: `entity Group, attribute darkColor`, `object #12`, `line 4`, `byte 812`.
    public var location: String?

    public init(_ code: Code, _ message: String, source: String? = nil, location: String? = nil) {
        self.code = code
        self.message = message
        self.source = source
        self.location = location
    }

    /// `<what> at <where>`; the source is left to the caller's prefix.
    public var description: String {
        location.map { "\(message) at \($0)" } ?? message
    }

    package func from(_ source: String) -> ModelError {
        var copy = self
        if copy.source == nil { copy.source = source }
        return copy
    }
}
