/// Why an archive cannot become a payload.
public struct PayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The object graph loops back on itself; a tree-shaped payload cannot hold it.
        case cycle
        /// The archive names no root object.
        case noRoot
        /// Nesting beyond the configured limit.
        case tooDeep
        /// More values than `PayloadOptions.maximumValueCount`, shared objects counted at each use.
        case tooLarge
        /// The allow-list check refused the archive.
        case refused
        /// The payload could not be archived (a path or class that does not fit).
        case invalidMapping
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
