/// Why bytes are not a readable NIBArchive, and where.
public struct NIBArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The bytes do not start with the magic `NIBArchive`.
        case notANIBArchive
        /// A table, or a value in one, runs past the end of the bytes.
        case truncated
        /// A count, offset, index, type byte or name breaks the format's rules.
        case malformed
        /// A configured limit (`NIBArchiveReadOptions`) was reached.
        case limitExceeded
    }

    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The byte offset of the problem.
    public var offset: Int
    /// The entry being read, as `value 12` or `object 3`, when the problem is inside one.
    public var entry: String?

    public init(_ code: Code, _ message: String, offset: Int, entry: String? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.entry = entry
    }

    /// `truncated: the archive ends inside a 4-byte integer at byte 812 (value 12)`.
    public var description: String {
        var text = message + " at byte \(offset)"
        if let entry { text += " (\(entry))" }
        return text
    }
}
