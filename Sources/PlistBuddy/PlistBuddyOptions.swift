import PropertyList

/// Choices for a PlistBuddy session, and the limits on what it reads.
public struct PlistBuddyOptions: Sendable {
    /// Limits on the files read (the document, and files given to `Merge`); `Import` reads
    /// bytes no larger than `reading.maximumInputSize`.
    public var reading = PropertyListReadOptions()
    /// `-x`: `Print` writes the value as an XML property list.
    public var printsXML = false
    /// False for `-l`: a document path that is a symbolic link is refused rather than followed.
    public var followsSymbolicLinks = true
    /// How dates are shown and read (by default in the C library's local time, as on a Mac).
    public var dates = PlistBuddyDateFormat()

    /// The format a saved document is written in.
    public enum SaveFormat: Sendable, Hashable {
        /// The format the file was read in: a binary file stays binary; XML, OpenStep and new
        /// files are written as XML.
        case original
        /// Always XML, as macOS's PlistBuddy writes every file it saves.
        case xml
    }

    /// Default `.xml`, as macOS's PlistBuddy saves: a script written for a Mac gets the file a
    /// Mac would leave. `.original` keeps a binary file binary.
    public var saveFormat = SaveFormat.xml

    public init() {}
}
