import Foundation
import Testing

/// `archivist --version`: the version make stamped (or a plain statement that nothing did), then
/// the C libraries the executable links, with the versions their headers had at build time.
@Suite struct VersionCLITests {
    /// Each library as `--version` names it, and its pkg-config module: the headers SwiftPM
    /// compiled against are the ones pkg-config points at.
    static let libraries = [
        ("libxml2", "libxml-2.0"), ("SQLite", "sqlite3"), ("zlib", "zlib"), ("libarchive", "libarchive"), ("libpq", "libpq"),
    ]

    @Test func versionPrintsTheVersionThenTheCLibrariesItWasBuiltWith() throws {
        let r = try ArchivistProcess.run(["--version"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 3 && lines[2].isEmpty, "two lines: \(r.out)")
        // A test build is a plain `swift build`, never stamped by make, and says so; a stamped
        // build would show the tag or 0.0.0-dev+COMMIT (scripts/version).
        let stamped = lines[0].wholeMatch(of: /archivist (\d+\.\d+\.\d+(-dev)?(\+[0-9a-z.]+)?)/) != nil
        #expect(stamped || lines[0] == "archivist 0.0.0-dev+unstamped (built without make, which stamps the version from git)",
                "\(lines[0])")
        #expect(lines[1].hasPrefix("built with "), "\(lines[1])")
        let named = lines[1].dropFirst("built with ".count).split(separator: ", ").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(named == Self.libraries.map(\.0))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pkg-config"), "pkg-config is absent"))
    func eachLibraryVersionIsTheOneItsHeadersDeclare() throws {
        let r = try ArchivistProcess.run(["--version"])
        let builtWith = r.out.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        for (name, module) in Self.libraries {
            let pkgConfig = try ArchivistProcess.run(URL(fileURLWithPath: "/usr/bin/pkg-config"), ["--modversion", module])
            let version = pkgConfig.out.trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(pkgConfig.status == 0 && !version.isEmpty, "pkg-config --modversion \(module): \(pkgConfig.err)")
            #expect(builtWith.contains("\(name) \(version)"), "\(name) \(version) in: \(builtWith)")
        }
    }
}
