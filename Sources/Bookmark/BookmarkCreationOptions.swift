/// The `NSURL.BookmarkCreationOptions` a bookmark was made with (key `0xD010`), with the
/// security-scope flags named.
public struct BookmarkCreationOptions: Sendable, Hashable {
    public var rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// `withSecurityScope` (1 << 11): an app-sandbox bookmark that grants access again.
    public var withSecurityScope: Bool { rawValue & 1 << 11 != 0 }
    /// `securityScopeAllowOnlyReadAccess` (1 << 12).
    public var securityScopeAllowOnlyReadAccess: Bool { rawValue & 1 << 12 != 0 }
    /// `withoutImplicitSecurityScope` (1 << 29).
    public var withoutImplicitSecurityScope: Bool { rawValue & 1 << 29 != 0 }

    /// The names of the set options, lowest bit first; unnamed bits as `0x…`.
    public var names: [String] { flagNames(rawValue, table: Self.table) }

    static let table: [(UInt64, String)] = [
        (1 << 0, "preferFileIDResolution(old)"), (1 << 8, "preferFileIDResolution"), (1 << 9, "minimalBookmark"),
        (1 << 10, "suitableForBookmarkFile"), (1 << 11, "withSecurityScope"), (1 << 12, "securityScopeAllowOnlyReadAccess"),
        (1 << 29, "withoutImplicitSecurityScope"),
    ]
}
