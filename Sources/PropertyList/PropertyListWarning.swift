/// Something a reader accepted but a person should know, such as a key written twice in one
/// dictionary, where readers disagree on which value counts.
public struct PropertyListWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A dictionary holds the same key twice.
        case duplicateKey
    }

    public var code: Code
    /// The whole warning in words, with its place.
    public var message: String
    /// Where the warning points (the repeated key).
    public var location: PropertyListError.Location
    /// The path to the dictionary holding it.
    public var keyPath: [String]

    public init(_ code: Code, _ message: String, at location: PropertyListError.Location, keyPath: [String] = []) {
        self.code = code
        self.message = message
        self.location = location
        self.keyPath = keyPath
    }

    public var description: String { message }
}
