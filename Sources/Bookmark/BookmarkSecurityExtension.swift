import Foundation

/// A sandbox extension kept in a security-scoped bookmark (`0xF080` read-write, `0xF081`
/// read-only): a NUL-terminated token of `;`-separated fields, the extension class
/// (`com.apple.app-sandbox.read-write`) among them and the path last.
public struct BookmarkSecurityExtension: Sendable, Hashable {
    /// Whether it came from the read-only key (`0xF081`).
    public var readOnly: Bool
    /// The whole token, up to its NUL.
    public var token: String
    /// The extension class, when the token names one (`com.apple.…`).
    public var extensionClass: String?
    /// The path the extension grants, when the token ends with one.
    public var path: String?

    public init(_ data: Data, readOnly: Bool) {
        self.readOnly = readOnly
        let text = data.prefix(while: { $0 != 0 })
        token = String(decoding: text, as: UTF8.self)
        let fields = token.split(separator: ";", omittingEmptySubsequences: false)
        extensionClass = fields.first(where: { $0.hasPrefix("com.apple.") }).map(String.init)
        path = fields.last.flatMap { $0.hasPrefix("/") ? String($0) : nil }
    }
}
