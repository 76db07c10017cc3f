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

    public init() {}

    public static let `default` = KeyedArchiveReadOptions()
}
