import PropertyList
import TypedStream
import NIBArchive
import Bookmark

/// Choices and limits for reading keyed archives.
public struct KeyedArchiveReadOptions: Sendable, Hashable {
    /// Limits for the property list underneath.
    public var propertyList: PropertyListReadOptions = .default
    /// The `$top` key that names the root object. `NSKeyedArchiver.archivedData(withRootObject:)`
    /// writes `root`; archives made with `encode(_:forKey:)` at the top use their own keys.
    public var topKey: String = "root"
    /// The longest chain of references from the root. Defaults to the plist depth limit.
    public var maximumDepth: Int = PropertyListReadOptions.default.maximumDepth
    /// Limits for NSArchiver typedstreams, which every reader of archives also takes.
    public var typedStream: TypedStreamReadOptions = .default
    /// Limits for compiled nibs (NIBArchive), which every reader of archives also takes.
    public var nibArchive: NIBArchiveReadOptions = .default
    /// Limits for bookmark data found in archives and plists.
    public var bookmark: BookmarkReadOptions = .default
    /// Hand back an entry of `$objects` that is referenced as an object but is none (a
    /// dictionary without a `$class` UID or with a key that is not a string, an array, a UID) as
    /// the value it is (`ArchivedContent.propertyList`), as Foundation's `NSKeyedUnarchiver`
    /// does. Off by default: NSKeyedArchiver never writes one, and the project's conformance
    /// contract asks for such an archive to be refused as malformed (docs/parity.md); the
    /// parity harness turns it on to compare with Foundation.
    public var keepsEntriesThatAreNoObjects: Bool = false

    public init() {}

    public static let `default` = KeyedArchiveReadOptions()
}
