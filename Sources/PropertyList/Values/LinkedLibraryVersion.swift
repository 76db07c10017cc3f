/// A C library an Archivist module links, with the version its headers declared when the module
/// was compiled and the version the library loaded into this process reports.
///
/// The two differ only when the system's library was upgraded after the build; `archivist
/// --version` shows both then. Each module that links a C library adds its own (`libxml2` here;
/// `zlib` in CoreDataModel, `sqlite` in CoreDataStore, `libarchive` in Sweep, `libpq` in
/// PostgresTable). libarchive and libpq are opened on first use, not linked: when one is not
/// installed it has no loaded version.
public struct LinkedLibraryVersion: Sendable, Hashable {
    /// The library's usual name, as its project spells it.
    public let name: String
    /// The version in the headers the module was compiled against.
    public let compiledVersion: String
    /// The version the loaded library reports at run time; nil for a library opened on first
    /// use that cannot be opened here (not installed).
    public let loadedVersion: String?

    public init(name: String, compiledVersion: String, loadedVersion: String?) {
        self.name = name
        self.compiledVersion = compiledVersion
        self.loadedVersion = loadedVersion
    }

    /// "name 1.2.3", and "(loaded 1.2.4)" after it when the loaded library is another version,
    /// or "(not installed)" when it cannot be loaded.
    public var summary: String {
        guard let loadedVersion else { return "\(name) \(compiledVersion) (not installed)" }
        return compiledVersion == loadedVersion
            ? "\(name) \(compiledVersion)"
            : "\(name) \(compiledVersion) (loaded \(loadedVersion))"
    }

    /// Dotted text for a version number packed in decimal, `major * base² + minor * base + patch`:
    /// libxml2's 20914 (base 100) is 2.9.14, libarchive's 3006002 (base 1000) is 3.6.2.
    public static func dotted(_ number: Int, base: Int) -> String {
        guard number >= 0, base > 1 else { return String(number) }
        return "\(number / (base * base)).\(number / base % base).\(number % base)"
    }
}
