/// A path given to a sweep that cannot be swept at all (a damaged item inside it is a record,
/// not an error).
public struct SweepError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
