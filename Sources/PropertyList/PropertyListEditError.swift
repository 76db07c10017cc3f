/// Why a value could not be read, added, changed or removed at a key path.
///
/// `keyPath` is the whole path asked for and `failedAt` how many of its components were
/// followed before the problem, so a message can name both the path and the step.
public struct PropertyListEditError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A component names no value: a missing key or an index past the end.
        case notFound
        /// `insert` found a value already at a dictionary key.
        case alreadyExists
        /// `append` found something other than an array at the path.
        case notAnArray
        /// A component is not a decimal index, and the value there is an array.
        case invalidIndex
        /// An index is outside what the array allows for this edit.
        case indexOutOfRange
        /// A component goes into a value that is neither an array nor a dictionary.
        case notAContainer
        /// The edit would remove or replace the whole document where that is not allowed.
        case rootNotEditable
    }

    public var code: Code
    public var keyPath: PropertyListKeyPath
    /// The number of components followed before the failing one.
    public var failedAt: Int
    public var message: String

    public init(_ code: Code, keyPath: PropertyListKeyPath, failedAt: Int, _ message: String) {
        self.code = code
        self.keyPath = keyPath
        self.failedAt = failedAt
        self.message = message
    }

    public var description: String { message }
}
