import Foundation

/// A PostgreSQL connection URL as given (`postgres://USER@HOST:PORT/DB?sslmode=…`), and the
/// form of it that may be shown.
///
/// libpq parses and applies the URL itself, so every convention PostgreSQL users rely on holds:
/// `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `~/.pgpass`, `sslmode`, and
/// Unix sockets (`postgres:///db?host=/run/postgresql`). This type only keeps the password out
/// of sight: `description` drops it, and `scrub` removes it (and `PGPASSWORD`) from any text.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL exactly as given: handed to libpq, never printed.
    let text: String
    /// The URL without its password, for messages and reports.
    public let redacted: String
    /// Every spelling of a password this URL or the environment holds, longest first.
    let secrets: [String]

    /// Whether `argument` names a PostgreSQL source rather than a file.
    public static func isPostgresURL(_ argument: String) -> Bool {
        let lower = argument.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Takes a URL; libpq checks it when connecting (`PostgresConnection`), which is where a
    /// malformed one is refused, with libpq's reason.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.text = text
        var secrets: Set<String> = []
        let (redacted, passwords) = Self.redact(text)
        for password in passwords where !password.isEmpty {
            secrets.insert(password)
            if let decoded = password.removingPercentEncoding, !decoded.isEmpty { secrets.insert(decoded) }
        }
        if let password = environment["PGPASSWORD"], !password.isEmpty { secrets.insert(password) }
        self.redacted = redacted
        self.secrets = secrets.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    public var description: String { redacted }

    /// `text` with every secret replaced by `***`.
    func scrub(_ message: String, also extra: [String] = []) -> String {
        var out = message
        for secret in (secrets + extra.filter { !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            out = out.replacingOccurrences(of: secret, with: "***")
        }
        return out
    }

    /// The URL without the password of its user part and without `password=` (or
    /// `sslpassword=`) query parameters; and the passwords taken out, as written.
    static func redact(_ url: String) -> (String, [String]) {
        var passwords: [String] = []
        guard let schemeEnd = url.range(of: "://") else { return (url, []) }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        var authority = String(afterScheme[..<authorityEnd])
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                passwords.append(String(userInfo[userInfo.index(after: colon)...]))
                authority = String(userInfo[..<colon]) + String(authority[at...])
            }
        }
        var rest = String(afterScheme[authorityEnd...])
        if let question = rest.firstIndex(of: "?") {
            let path = rest[..<question]
            let query = rest[rest.index(after: question)...]
            var kept: [Substring] = []
            for parameter in query.split(separator: "&", omittingEmptySubsequences: false) {
                let name = parameter.split(separator: "=", maxSplits: 1).first.map { $0.lowercased() } ?? ""
                if name == "password" || name == "sslpassword" {
                    if let equals = parameter.firstIndex(of: "=") { passwords.append(String(parameter[parameter.index(after: equals)...])) }
                    continue
                }
                kept.append(parameter)
            }
            rest = String(path) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        return (String(url[..<schemeEnd.upperBound]) + authority + rest, passwords)
    }
}
